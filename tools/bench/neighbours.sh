#!/usr/bin/env bash
# uuidx beside its peers on one throwaway PostgreSQL 18 server with
# TimescaleDB, pg_uuidv7 and uuidx (BENCHMARKS.md, section 12), in the
# unstable root, which has Debian's packages of all three:
#
#   bash tools/debian-root.sh run sid bash tools/bench/neighbours.sh
#
#   a. generation  SELECT count(F()) FROM generate_series(1, ROWS) for uuidx's
#                  uuid_generate_v7(), pg_uuidv7's, TimescaleDB's generate_uuidv7(),
#                  core uuidv7(), gen_random_uuid() and clock_timestamp(); ns per value
#   b. windows     a hypertable partitioned by the key, DAYS days of keys one every
#                  SPACING seconds: the last hour and a day DAYS/1.5 days back, counted
#                  and the newest 10 rows, as uuidx's forms (id <@ r also on a copy
#                  whose key is declared v7: "declared"), as hand-written bounds, and
#                  as TimescaleDB's uuid_timestamp(id) in a database without uuidx
#                  (the same hypertable: TimescaleDB alone)
# Each figure is the median of ROUNDS rounds, the variants in a rotated
# order each round, on this one server in this one run.
#
#   UUIDX_BENCH_ROUNDS=5  UUIDX_BENCH_ROWS=2000000  UUIDX_BENCH_DAYS=30
#   UUIDX_BENCH_SPACING=2  UUIDX_BENCH_SECONDS=4 (each pgbench run)
#   UUIDX_BENCH_OUT=DIR    keep the report there (in the root: /uuidx-out with UUIDX_ROOT_OUT)
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
trap 'echo "neighbours.sh: failed at line $LINENO" >&2' ERR

rounds=${UUIDX_BENCH_ROUNDS:-5}
rows=${UUIDX_BENCH_ROWS:-2000000}
days=${UUIDX_BENCH_DAYS:-30}
spacing=${UUIDX_BENCH_SPACING:-2}
secs=${UUIDX_BENCH_SECONDS:-4}

for ext in timescaledb pg_uuidv7; do
	[ -f "$("$PG_CONFIG" --sharedir)/extension/$ext.control" ] ||
		{ echo "$ext is not installed in $("$PG_CONFIG" --version): run this in the unstable root" >&2; exit 1; }
done
require_build_packages
build_and_install
dir=$(make_workdir neighbours)
trap 'stop_server "$dir"; rm -rf "$dir"' EXIT
res=${UUIDX_BENCH_OUT:-$dir/results}
mkdir -p "$res"
: >"$res/raw.txt"
start_server "$dir" "shared_preload_libraries = 'timescaledb,uuidx'" "shared_buffers = '1GB'" \
	"max_wal_size = '8GB'" "checkpoint_timeout = '1h'" "autovacuum = off" \
	"max_parallel_workers_per_gather = 0" "timezone = 'UTC'"
psql_() { "$PG_BINDIR/psql" -h "$dir" -U postgres -X -q -v ON_ERROR_STOP=1 "$@"; }
calc() { awk "BEGIN { print $* }"; }
nth() { local r=$1 i=$2; shift 2; local a=("$@"); echo "${a[$(((i + r) % ${#a[@]}))]}"; }
median() {
	awk -v s="$1" -v v="$2" '$1 == s && $2 == v { print $4 }' "$res/raw.txt" | sort -g |
		awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}

# Both databases: TimescaleDB and uuidx in public, pg_uuidv7 in a schema of
# its own (both define uuid_generate_v7()); the second has no uuidx.
psql_ -d postgres <<'SQL'
CREATE EXTENSION timescaledb;
CREATE EXTENSION uuidx;
CREATE SCHEMA pgu;
CREATE EXTENSION pg_uuidv7 SCHEMA pgu;
CREATE DATABASE tsonly;
SQL
psql_ -d tsonly -c 'CREATE EXTENSION timescaledb'

# a. Generation: ms by the server's clock, after a warm-up in the session.
gens=(uuid_generate_v7 pgu.uuid_generate_v7 generate_uuidv7 uuidv7 gen_random_uuid clock_timestamp)
say "a. generation: SELECT count(F()) FROM generate_series(1, $rows), $rounds rounds"
for ((r = 0; r < rounds; r++)); do
	for ((i = 0; i < ${#gens[@]}; i++)); do
		f=$(nth $r $i "${gens[@]}")
		ms=$(psql_ -d postgres -At <<SQL | tail -1
SELECT count($f()) FROM generate_series(1, 10000);
SELECT clock_timestamp() AS t0 \gset
SELECT count($f()) FROM generate_series(1, $rows);
SELECT extract(epoch FROM clock_timestamp() - :'t0') * 1000;
SQL
)
		echo "gen $f $r $(calc "$ms * 1e6 / $rows")" >>"$res/raw.txt"
	done
done

# b. Windows on a hypertable partitioned by the key, in both databases.
say "b. windows: a hypertable of $days days, a key every $spacing s"
for db in postgres tsonly; do
	psql_ -d "$db" <<SQL
CREATE TABLE ev (id uuid NOT NULL, payload int);
SELECT create_hypertable('ev', by_range('id', interval '1 day'));
INSERT INTO ev SELECT to_uuidv7_boundary(t), 0
FROM generate_series(now() - interval '$days days', now(), interval '$spacing seconds') t;
VACUUM ANALYZE ev;
SQL
done
# the same keys in a hypertable whose key says it holds v7 keys only
psql_ -d postgres <<SQL
CREATE TABLE evd (id uuid NOT NULL CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), payload int);
SELECT create_hypertable('evd', by_range('id', interval '1 day'));
INSERT INTO evd SELECT * FROM ev;
VACUUM ANALYZE evd;
SQL
back=$(calc "int($days / 1.5)")
hour="now() - interval '1 hour'|now()"
day="date_trunc('day', now()) - interval '$back days'|date_trunc('day', now()) - interval '$((back - 1)) days'"
# window: "lower|upper"; style -> the condition
cond() {
	local lo=${2%%|*} hi=${2##*|}
	case $1 in
	contained) echo "id <@ tstzrange($lo, $hi)" ;;
	v7_form) echo "uuid_v7_to_timestamptz(id) >= $lo AND uuid_v7_to_timestamptz(id) < $hi" ;;
	ts_form) echo "uuid_timestamp(id) >= $lo AND uuid_timestamp(id) < $hi" ;;
	bounds) echo "id >= uuid_v7_lower_bound($lo) AND id < uuid_v7_lower_bound($hi)" ;;
	esac
}
styles=(contained declared v7_form ts_form bounds ts_alone)
for w in hour day; do
	for q in count newest; do
		for ((r = 0; r < rounds; r++)); do
			for ((i = 0; i < ${#styles[@]}; i++)); do
				s=$(nth $r $i "${styles[@]}")
				db=postgres t=ev
				c=$(cond "$(echo "$s" | sed 's/ts_alone/ts_form/; s/declared/contained/')" "${!w}")
				[ "$s" = ts_alone ] && db=tsonly
				[ "$s" = declared ] && t=evd
				case $q in
				count) sql="SELECT count(*) FROM $t WHERE $c" ;;
				newest) sql="SELECT id FROM $t WHERE $c ORDER BY id DESC LIMIT 10" ;;
				esac
				printf '%s;\n' "$sql" >"$dir/q.sql"
				lat=$("$PG_BINDIR/pgbench" -h "$dir" -U postgres -n -M simple -T "$secs" -f "$dir/q.sql" "$db" 2>&1 |
					awk '/^latency average/ { print $4 }')
				echo "$w-$q $s $r $lat" >>"$res/raw.txt"
			done
		done
	done
done

{
	printf '\n12a. Generation on PostgreSQL %s, TimescaleDB %s, pg_uuidv7 %s: SELECT count(F()) FROM generate_series(1, %s), median of %s rounds\n' \
		"$("$PG_CONFIG" --version | awk '{ print $2 }')" \
		"$(psql_ -d postgres -Atc "SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'")" \
		"$(psql_ -d postgres -Atc "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidv7'")" "$rows" "$rounds"
	c=$(median gen clock_timestamp) u=$(median gen uuid_generate_v7)
	printf '%-24s %10s %19s %10s\n' function ns/value "x clock_timestamp" "x uuidx"
	for f in "${gens[@]}"; do
		m=$(median gen "$f")
		printf '%-24s %10.1f %19.2f %10.2f\n' "$f" "$m" "$(calc "$m / $c")" "$(calc "$m / $u")"
	done
	printf '\n12b. A hypertable partitioned by the key, %s days, a key every %s s: ms per statement (pgbench -T %s), median of %s rounds\n' \
		"$days" "$spacing" "$secs" "$rounds"
	printf '%-14s %-12s %10s %12s %16s\n' window style ms "x bounds" "x TimescaleDB"
	for w in hour day; do
		for q in count newest; do
			b=$(median "$w-$q" bounds) t=$(median "$w-$q" ts_alone)
			for s in "${styles[@]}"; do
				m=$(median "$w-$q" "$s")
				printf '%-14s %-12s %10.3f %12.2f %16.3f\n' "$w-$q" "$s" "$m" "$(calc "$m / $b")" "$(calc "$m / $t")"
			done
		done
	done
} | tee "$res/report.txt"
