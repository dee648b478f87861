#!/usr/bin/env bash
# make demo: install what is missing, build and install uuidx, start a
# throwaway PostgreSQL with uuidx preloaded (data directory and Unix socket in
# a temporary folder), walk through uuidx, and stop the server again unless
# UUIDX_DEMO_KEEP=1 is set.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_build_packages
build_and_install
dir=$(make_workdir demo)
say "starting PostgreSQL $PG_MAJOR in $dir"
start_server "$dir" "shared_preload_libraries = 'uuidx'"
cleanup() {
	if [ "${UUIDX_DEMO_KEEP:-0}" != 1 ]; then
		stop_server "$dir"
		rm -rf "$dir"
	fi
}
trap cleanup EXIT

"$PG_BINDIR/psql" -h "$dir" -U postgres -d postgres -X -v ON_ERROR_STOP=1 -e <<'SQL'
CREATE EXTENSION uuidx;

-- 1. A primary key that defaults to a time-ordered UUIDv7, declared to hold
-- only v7 keys of the RFC variant (which gives time ranges exact index scans).
CREATE TABLE orders (
    id   uuid PRIMARY KEY DEFAULT uuid_generate_v7()
         CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2),
    item text NOT NULL
);
-- A month of history first: keys made from past times.
INSERT INTO orders (id, item)
SELECT uuid_timestamptz_to_v7(now() - interval '30 days' + n * interval '25 seconds'), 'old ' || n
FROM generate_series(1, 100000) AS n;
INSERT INTO orders (item) VALUES ('tea'), ('coffee'), ('cake');
INSERT INTO orders (item) SELECT 'bulk ' || n FROM generate_series(1, 10000) AS n;
VACUUM ANALYZE orders;
SELECT id, uuid_version(id) AS version, uuid_timestamp(id) AS created, item
FROM orders WHERE item IN ('tea', 'coffee', 'cake') ORDER BY id;

-- Keys sort in insertion order, across every session of the server.
SELECT count(*) AS rows, bool_and(id > prev) AS strictly_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM orders) s WHERE prev IS NOT NULL;

-- 2. Rows created in the last minute, counted from the primary-key index alone.
SELECT count(*) AS last_minute FROM orders
WHERE id <@ tstzrange(now() - interval '1 minute', now());
EXPLAIN (COSTS OFF)
SELECT count(*) FROM orders
WHERE id <@ tstzrange(now() - interval '1 minute', now());

-- 3. The ten newest rows of the last minute: the index walked backwards, no sort.
SELECT id, item FROM orders
WHERE id <@ tstzrange(now() - interval '1 minute', now())
ORDER BY id DESC LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT id, item FROM orders
WHERE id <@ tstzrange(now() - interval '1 minute', now())
ORDER BY id DESC LIMIT 10;

-- 4. A key to show outside, without its creation time: masked with a secret
-- key it reads as a random v4; unmasked, it is the v7 again.  As ULID text.
SELECT uuid_v7_mask(id, '\x000102030405060708090a0b0c0d0e0f') AS shown,
       uuid_v7_unmask(uuid_v7_mask(id, '\x000102030405060708090a0b0c0d0e0f'),
                      '\x000102030405060708090a0b0c0d0e0f') = id AS round_trip,
       uuid_to_ulid(id) AS ulid
FROM orders ORDER BY id LIMIT 1;

-- 5. A v1 value, taken apart and turned into v6 and back.
SELECT uuid_v1_to_v6('c232ab00-9414-11ec-b3c8-9e6bdeced846') AS v6,
       uuid_timestamp('c232ab00-9414-11ec-b3c8-9e6bdeced846') AS created,
       uuid_node('c232ab00-9414-11ec-b3c8-9e6bdeced846') AS node;

-- The generator state: shared by the whole server, how far ahead of the clock.
SELECT * FROM uuidx_generator_state();
SQL

if [ "${UUIDX_DEMO_KEEP:-0}" = 1 ]; then
	echo
	echo "The server keeps running. Connect with:"
	echo "  psql -h $dir -U postgres postgres"
	echo "(its database postgres has the demo's orders table: CREATE DATABASE try; \\c try for a clean one)"
	echo "Stop it with:"
	echo "  ${AS_PG[*]} $PG_BINDIR/pg_ctl -D $dir/data stop && rm -rf $dir"
else
	echo
	echo "Demo done; the server is stopped and its files removed."
	echo "To keep it running and connect yourself: UUIDX_DEMO_KEEP=1 make demo"
	echo "(then: psql -h <the folder it prints> -U postgres postgres)"
fi
