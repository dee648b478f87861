#!/usr/bin/env bash
# make bench: cost per value of uuidx's generators against core functions,
# on one throwaway server (uuidx preloaded), interleaved and repeated; prints
# medians and ratios.  A benchmark, not a test: nothing here passes or fails.
#
#   UUIDX_BENCH_ROUNDS=7   rounds (each runs every function once, in rotated order)
#   UUIDX_BENCH_ROWS=3000000
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

rounds=${UUIDX_BENCH_ROUNDS:-7}
rows=${UUIDX_BENCH_ROWS:-3000000}

require_build_packages
build_and_install
dir=$(make_workdir bench)
start_server "$dir" "shared_preload_libraries = 'uuidx'" "shared_buffers = '256MB'" "max_wal_size = '4GB'"
trap 'stop_server "$dir"; rm -rf "$dir"' EXIT
psql_() { "$PG_BINDIR/psql" -h "$dir" -U postgres -d postgres -X -q -v ON_ERROR_STOP=1 "$@"; }

psql_ -c 'CREATE EXTENSION uuidx' -c 'CREATE EXTENSION "uuid-ossp"' 2>/dev/null ||
	psql_ -c 'CREATE EXTENSION IF NOT EXISTS uuidx'
funcs=(clock_timestamp gen_random_uuid uuid_generate_v7 uuid_generate_v6 uuid_generate_v8)
if psql_ -Atc "SELECT 1 FROM pg_extension WHERE extname = 'uuid-ossp'" | grep -q 1; then
	funcs+=(uuid_generate_v1)
fi
if psql_ -Atc "SELECT 1 FROM pg_proc WHERE proname = 'uuidv7' AND pronargs = 0" | grep -q 1; then
	funcs+=(uuidv7)
fi

# One timing, in ms, measured inside the server so that no client time counts.
time_one() {
	psql_ -At <<SQL
SELECT count($1()) FROM generate_series(1, 1000);  -- warm the backend
SELECT extract(epoch FROM clock_timestamp() - t0) * 1000
FROM (SELECT clock_timestamp() AS t0) s, LATERAL (SELECT count($1()) FROM generate_series(1, $rows)) c;
SQL
}

results=$(mktemp)
say "cost per value: SELECT count(F()) FROM generate_series(1, $rows), $rounds rounds"
for ((r = 0; r < rounds; r++)); do
	n=${#funcs[@]}
	for ((i = 0; i < n; i++)); do
		f=${funcs[$(((i + r) % n))]}
		echo "$f $(time_one "$f" | tail -1)" >>"$results"
	done
done

median() { grep "^$1 " "$results" | awk '{print $2}' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
base_clock=$(median clock_timestamp)
base_random=$(median gen_random_uuid)
printf '\n%-18s %12s %10s %18s %22s\n' function "median ms" "ns/value" "x clock_timestamp" "x gen_random_uuid"
for f in "${funcs[@]}"; do
	m=$(median "$f")
	awk -v f="$f" -v m="$m" -v c="$base_clock" -v g="$base_random" -v rows="$rows" \
		'BEGIN { printf "%-18s %12.1f %10.1f %18.2f %22.3f\n", f, m, m * 1e6 / rows, m / c, m / g }'
done
echo
echo "PostgreSQL $PG_MAJOR, $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $rounds rounds of $rows rows"
rm -f "$results"
