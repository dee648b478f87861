#!/usr/bin/env bash
# make bench: uuidx against core PostgreSQL on one throwaway server (uuidx
# preloaded, so the generators' state is shared).  Every measurement is
# repeated, with the compared variants in a rotated order each round, and
# reported as medians and ratios measured side by side in this one run.
# A benchmark, not a test: a missed target is reported, never an error.
#
#   1. cost per value  SELECT count(F()) FROM generate_series(1, ROWS)
#   2. pk inserts      INSERT ... SELECT of INSERT_ROWS rows into an empty table, then as many more
#   3. many sessions   pgbench, CLIENTS clients, SELECT uuid_generate_v7() against SELECT clock_timestamp()
#   4. conversion      uuid_v1_to_v6() over CONVERT_ROWS stored v1 values against a plain read
#   5. time ranges     RANGE_ROWS v7 keys over 30 days; windows of 1 minute, 1 hour, 1 day
#                      queried with id <@ tstzrange, with hand-written bounds, with a uuid_timestamp() filter
#   6. time queries    KEYORDER_ROWS v7 keys over 60 days: the newest and oldest 10 rows of a window, all its rows
#                      and a count, as users write them (id <@ r, uuid_timestamp(id), uuid_v7_to_timestamptz(id),
#                      on 18 core's uuid_extract_timestamp(id)),
#                      on an undeclared, a declared and a v6-and-v7 column, against hand-written bounds
#   7. mark in WAL     uuid_generate_v7() with uuidx.wal_log_mark off and on: ns per value, WAL bytes per second
#   8. release 1.2     uuid_v7_mask/unmask, uuid_to_ulid/ulid_to_uuid per value; max(id) from the index
#   9. PostgreSQL's rules  time queries on tables of 7 and 367 daily partitions (planning and statements),
#                      an outer join, a partial index, keyset pages and estimates, against hand-written bounds
#  10. paused inserts  one INSERT every 1.5 s and every 0.3 s (pgbench \sleep), a uuid_generate_v7() key against
#                      bigint identity, uuidx.wal_log_mark off and on; the first value after a 1.5 s pause
#  11. replay          crash recovery of REPLAY_SECONDS of inserts at 1,000 a second, uuidx.wal_log_mark off and on
#
# Environment (defaults are the issues' sizes; a default run takes about 12 minutes on 2 cores):
#   UUIDX_BENCH_ROUNDS=5  UUIDX_BENCH_INSERT_ROUNDS=3  UUIDX_BENCH_PGBENCH_ROUNDS=5
#   UUIDX_BENCH_ROWS=3000000  UUIDX_BENCH_INSERT_ROWS=2000000  UUIDX_BENCH_CONVERT_ROWS=3000000
#   UUIDX_BENCH_PGBENCH_SECONDS=5  UUIDX_BENCH_CLIENTS="1 2 4 8"  UUIDX_BENCH_PIPELINE=100
#   UUIDX_BENCH_RANGE_ROWS=10000000  UUIDX_BENCH_KEYORDER_ROWS=1000000  UUIDX_BENCH_KEYORDER_SECONDS=6
#   UUIDX_BENCH_KEYORDER_TABLES="ko kod kom" (section 6's tables: undeclared, declared v7, v6 and v7)
#   UUIDX_BENCH_RULES_ROWS=1000000 (section 9's tables)
#   UUIDX_BENCH_PAUSE_SECONDS=60 (section 10's pgbench runs at 1.5 s; at 0.3 s half as long)
#   UUIDX_BENCH_REPLAY_SECONDS=30 (section 11's load)
#   UUIDX_BENCH_SECTIONS="1 2 3 4 5 6 7 8 9 10 11" (the sections to run)
#   UUIDX_BENCH_OUT=DIR    keep the report and the data files there (else they go with the server)
#   UUIDX_BENCH_PNG=FILE   the figure (default docs/bench.png in the checkout; empty: no figure)
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
trap 'echo "bench.sh: failed at line $LINENO" >&2' ERR

rounds=${UUIDX_BENCH_ROUNDS:-5}
ins_rounds=${UUIDX_BENCH_INSERT_ROUNDS:-$((rounds < 3 ? rounds : 3))}
pgb_rounds=${UUIDX_BENCH_PGBENCH_ROUNDS:-$rounds}
rows=${UUIDX_BENCH_ROWS:-3000000}
ins_rows=${UUIDX_BENCH_INSERT_ROWS:-2000000}
conv_rows=${UUIDX_BENCH_CONVERT_ROWS:-3000000}
pgb_secs=${UUIDX_BENCH_PGBENCH_SECONDS:-5}
read -ra clients <<<"${UUIDX_BENCH_CLIENTS:-1 2 4 8}"
range_rows=${UUIDX_BENCH_RANGE_ROWS:-10000000}
keyorder_rows=${UUIDX_BENCH_KEYORDER_ROWS:-1000000}
keyorder_secs=${UUIDX_BENCH_KEYORDER_SECONDS:-6}
keyorder_tables=${UUIDX_BENCH_KEYORDER_TABLES:-ko kod kom}
rules_rows=${UUIDX_BENCH_RULES_ROWS:-1000000}
pause_secs=${UUIDX_BENCH_PAUSE_SECONDS:-60}
replay_secs=${UUIDX_BENCH_REPLAY_SECONDS:-30}
sections=" ${UUIDX_BENCH_SECTIONS:-1 2 3 4 5 6 7 8 9 10 11} "
png=${UUIDX_BENCH_PNG-$UUIDX_ROOT/docs/bench.png}
command="$(env | grep '^UUIDX_BENCH_' | sort | tr '\n' ' ')make bench"

require_build_packages
if [ -n "$png" ] && ! require_packages gnuplot-nox; then
	say "no gnuplot: no figure"
	png=
fi
build_and_install
dir=$(make_workdir bench)
trap 'stop_server "$dir"; rm -rf "$dir"' EXIT
res=$dir/results # report.txt, raw.txt (every measurement) and the per-section .dat files
mkdir "$res"
# Room for the insert tables in memory, no checkpoint or autovacuum of its own
# during a measurement (CHECKPOINT is issued before each one instead), and one
# process per query: the sections compare single backends on a 2-core machine.
start_server "$dir" "shared_preload_libraries = 'uuidx'" "shared_buffers = '1GB'" \
	"max_wal_size = '8GB'" "checkpoint_timeout = '1h'" "autovacuum = off" \
	"max_parallel_workers_per_gather = 0" "max_parallel_maintenance_workers = 0"
psql_() { "$PG_BINDIR/psql" -h "$dir" -U postgres -d postgres -X -q -v ON_ERROR_STOP=1 "$@"; }
has() { [ -n "$(psql_ -Atc "$1")" ]; }

psql_ -c 'CREATE EXTENSION uuidx'
has "SELECT 1 FROM pg_available_extensions WHERE name = 'uuid-ossp'" && psql_ -c 'CREATE EXTENSION "uuid-ossp"'
ossp=$(has "SELECT 1 FROM pg_extension WHERE extname = 'uuid-ossp'" && echo 1 || true)
core_v7=$(has "SELECT 1 FROM pg_proc WHERE proname = 'uuidv7' AND pronargs = 0" && echo 1 || true)

# Milliseconds that SQL $2 takes, by the server's clock, in one fresh session
# in which the untimed SQL $1 (a warm-up) runs first.
time_sql() {
	psql_ -At <<SQL | tail -1
$1;
SELECT clock_timestamp() AS t0 \gset
$2;
SELECT extract(epoch FROM clock_timestamp() - :'t0') * 1000;
SQL
}
# Milliseconds per statement of each SQL given, in one pgbench run of
# SECONDS in one session, each statement a script of its own drawn at
# random per transaction (so that all of them meet the same moments of a
# noisy machine) and parsed and planned anew (the simple protocol, as an
# application's ad hoc query): latency_mixed SECONDS SQL...; prints each
# one's latency average, in the order given.
latency_mixed() {
	local secs=$1 i args=() out
	shift
	for ((i = 1; i <= $#; i++)); do
		printf '%s;\n' "${!i}" >"$dir/mixed$i.sql"
		args+=(-f "$dir/mixed$i.sql@1")
	done
	out=$("$PG_BINDIR/pgbench" -h "$dir" -U postgres -n -M simple -T "$secs" "${args[@]}" postgres 2>&1)
	out=$(awk '/^SQL script [0-9]+:/ { s = $3 } /^ - latency average/ && s { print $5; s = "" }' <<<"$out")
	[ "$(wc -l <<<"$out")" = $# ] || { echo "pgbench gave no latencies for: $*" >&2; exit 1; }
	echo "$out"
}
calc() { awk "BEGIN { print $* }"; }
# Rotate: the i-th of the n variants in round r.
nth() { local r=$1 i=$2; shift 2; local a=("$@"); echo "${a[$(((i + r) % ${#a[@]}))]}"; }
# raw.txt lines: SECTION VARIANT ROUND VALUE...; the median of column $3 (default 4).
median() {
	awk -v s="$1" -v v="$2" -v c="${3:-4}" '$1 == s && $2 == v { print $c }' "$res/raw.txt" | sort -g |
		awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}
show() { "$@" | tee -a "$res/report.txt"; }

# 1. Cost per value.
funcs=(clock_timestamp gen_random_uuid uuid_generate_v7 uuid_generate_v6 uuid_generate_v8)
[ -n "$ossp" ] && funcs+=(uuid_generate_v1)
[ -n "$core_v7" ] && funcs+=(uuidv7)
measure_cost() {
	say "1. cost per value: SELECT count(F()) FROM generate_series(1, $rows), $rounds rounds"
	local r i f n ms
	for ((r = 0; r < rounds; r++)); do
		for ((i = 0; i < ${#funcs[@]}; i++)); do
			f=$(nth $r $i "${funcs[@]}")
			ms=$(time_sql "SELECT count($f()) FROM generate_series(1, 1000)" "SELECT count($f()) FROM generate_series(1, $rows)")
			echo "cost $f $r $(calc "$ms * 1e6 / $rows")" >>"$res/raw.txt"
		done
	done
}
report_cost() {
	local c g f m
	c=$(median cost clock_timestamp) g=$(median cost gen_random_uuid)
	printf '\n1. Cost per value: SELECT count(F()) FROM generate_series(1, %s), median of %s rounds\n' "$rows" "$rounds"
	printf '%-18s %10s %19s %19s\n' function "ns/value" "x clock_timestamp" "x gen_random_uuid"
	for f in "${funcs[@]}"; do
		m=$(median cost "$f")
		echo "$f $m $(calc "$m / $c") $(calc "$m / $g")" >>"$res/cost.dat"
		printf '%-18s %10.1f %19.2f %19.3f\n' "$f" "$m" "$(calc "$m / $c")" "$(calc "$m / $g")"
	done
}

# 2. Primary-key inserts, one fresh table per key type and round.  WAL bytes
# are the distance the WAL insert position moved (pg_current_wal_insert_lsn:
# exact, unlike the write position, which lags); CHECKPOINT before each load
# makes both start with the same full-page-write state.
keys=(bigint gen_random_uuid uuid_generate_v7)
[ -n "$core_v7" ] && keys+=(uuidv7)
# One round for one key type -> phase 1 ms, phase 2 ms, total ms, WAL MB,
# pk index MB, and MB of a unique index that CREATE INDEX builds over the same keys.
load_twice() {
	local load="INSERT INTO ins (payload) SELECT g FROM generate_series(1, $ins_rows) g"
	psql_ -At <<SQL | tail -1
CREATE TABLE ins ($1, payload int);
CHECKPOINT;
SELECT clock_timestamp() AS t0, pg_current_wal_insert_lsn() AS l0 \gset
$load;
SELECT clock_timestamp() AS t1, pg_current_wal_insert_lsn() AS l1 \gset
CHECKPOINT;
SELECT clock_timestamp() AS t2, pg_current_wal_insert_lsn() AS l2 \gset
$load;
SELECT clock_timestamp() AS t3, pg_current_wal_insert_lsn() AS l3 \gset
CREATE UNIQUE INDEX ins_built ON ins (id);
SELECT p1, p2, p1 + p2, wal / 2^20, pg_relation_size('ins_pkey') / 2^20, pg_relation_size('ins_built') / 2^20
FROM (SELECT extract(epoch FROM :'t1'::timestamptz - :'t0') * 1000 AS p1,
             extract(epoch FROM :'t3'::timestamptz - :'t2') * 1000 AS p2,
             pg_wal_lsn_diff(:'l1', :'l0') + pg_wal_lsn_diff(:'l3', :'l2') AS wal) s;
DROP TABLE ins;
SQL
}
measure_inserts() {
	say "2. primary-key inserts: 2 x $ins_rows rows per key type, $ins_rounds rounds"
	local r i k col
	for ((r = 0; r < ins_rounds; r++)); do
		for ((i = 0; i < ${#keys[@]}; i++)); do
			k=$(nth $r $i "${keys[@]}") col="id uuid PRIMARY KEY DEFAULT $k()"
			[ "$k" = bigint ] && col='id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY'
			echo "insert $k $r $(load_twice "$col" | tr '|' ' ')" >>"$res/raw.txt"
		done
	done
}
report_inserts() {
	local b k c p1 p2 t w pk bu
	b=$(median insert bigint 6)
	printf '\n2. Primary-key inserts: %s rows into an empty table, then %s more; median of %s rounds\n' "$ins_rows" "$ins_rows" "$ins_rounds"
	printf '%-16s %9s %9s %9s %9s %9s %11s %16s %9s\n' key "1st s" "2nd s" "total s" "x bigint" "WAL MB" "pk index MB" "CREATE INDEX MB" "pk/built"
	for k in "${keys[@]}"; do
		read -r p1 p2 t w pk bu <<<"$(for c in 4 5 6 7 8 9; do median insert "$k" $c; done | tr '\n' ' ')"
		echo "$k $p1 $p2 $t $w $pk $bu" >>"$res/insert.dat"
		printf '%-16s %9.2f %9.2f %9.2f %9.3f %9.1f %11.1f %16.1f %9.3f\n' "$k" "$(calc "$p1 / 1000")" \
			"$(calc "$p2 / 1000")" "$(calc "$t / 1000")" "$(calc "$t / $b")" "$w" "$pk" "$bu" "$(calc "$pk / $bu")"
	done
	echo "(bigint is GENERATED ALWAYS AS IDENTITY; the uuid keys are the column's DEFAULT; CREATE INDEX is built over the same $((2 * ins_rows)) keys)"
}

# 3. Many sessions: throughput of one-function statements, so that any
# contention on the shared generator state shows against clock_timestamp().
# Each pgbench transaction sends PIPE statements in one pipeline: the server
# runs them back to back instead of waiting for a client round trip after
# each, which would otherwise be what one client measures.
pipe=${UUIDX_BENCH_PIPELINE:-100}
measure_sessions() {
	say "3. many sessions: pgbench -T $pgb_secs, clients ${clients[*]}, $pipe statements per pipeline, $pgb_rounds rounds"
	local f i
	for f in uuid_generate_v7 clock_timestamp; do
		{ echo '\startpipeline'; for ((i = 0; i < pipe; i++)); do echo "SELECT $f();"; done; echo '\endpipeline'; } >"$dir/$f.sql"
	done
	local r c s tps
	for ((r = 0; r < pgb_rounds; r++)); do
		for c in "${clients[@]}"; do
			for i in 0 1; do
				s=$(nth $((r + c)) $i uuid_generate_v7 clock_timestamp)
				tps=$("$PG_BINDIR/pgbench" -h "$dir" -U postgres -n -M prepared -T "$pgb_secs" -c "$c" -j $((c < 2 ? c : 2)) \
					-f "$dir/$s.sql" postgres 2>&1 | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p')
				[ -n "$tps" ] || { echo "pgbench gave no tps ($s, $c clients)" >&2; exit 1; }
				echo "sessions $s/$c $r $(awk "BEGIN { printf \"%.0f\", $tps * $pipe }")" >>"$res/raw.txt"
			done
		done
	done
}
report_sessions() {
	local c v k
	printf '\n3. Many sessions: pgbench -n -M prepared -T %s, %s statements per pipeline; median statements/s of %s rounds\n' "$pgb_secs" "$pipe" "$pgb_rounds"
	printf '%-8s %20s %20s %10s\n' clients "uuid_generate_v7()" "clock_timestamp()" "ratio"
	for c in "${clients[@]}"; do
		v=$(median sessions "uuid_generate_v7/$c") k=$(median sessions "clock_timestamp/$c")
		echo "$c $v $k $(calc "$v / $k")" >>"$res/sessions.dat"
		printf '%-8s %20.0f %20.0f %10.3f\n' "$c" "$v" "$k" "$(calc "$v / $k")"
	done
}

# 4. Conversion of stored v1 values (needs uuid-ossp for them).
measure_conversion() {
	say "4. conversion: $conv_rows stored v1 values, $rounds rounds"
	psql_ -c "CREATE TABLE conv AS SELECT uuid_generate_v1() AS u FROM generate_series(1, $conv_rows)" -c 'VACUUM ANALYZE conv'
	local r i q sql
	for ((r = 0; r < rounds; r++)); do
		for ((i = 0; i < 2; i++)); do
			q=$(nth $r $i convert read) sql='SELECT count(u) FROM conv'
			[ "$q" = convert ] && sql='SELECT count(uuid_v1_to_v6(u)) FROM conv'
			echo "conversion $q $r $(time_sql 'SELECT uuid_v1_to_v6(u) FROM conv LIMIT 1' "$sql")" >>"$res/raw.txt"
		done
	done
}
report_conversion() {
	local c p
	c=$(median conversion convert) p=$(median conversion read)
	printf '\n4. Conversion: %s stored v1 values, median of %s rounds\n' "$conv_rows" "$rounds"
	printf '%-42s %10s\n' query "median ms"
	printf '%-42s %10.1f\n' "SELECT count(u) FROM conv" "$p" "SELECT count(uuid_v1_to_v6(u)) FROM conv" "$c"
	printf 'ratio %.3f; uuid_v1_to_v6() costs %.1f ns per value beyond the read\n' "$(calc "$c / $p")" "$(calc "($c - $p) * 1e6 / $conv_rows")"
	echo "convert $c $p $(calc "$c / $p") $(calc "($c - $p) * 1e6 / $conv_rows")" >"$res/conversion.dat"
}

# 5. Time ranges: a table keyed by v7 over 30 days, in time order as rows
# arrive; windows starting 15 days back, each queried three ways, in two
# shapes: sum(payload) reads the rows, count(*) can be answered from the
# index alone by a single index scan.  A fourth way, the operator with a
# range built by a stable expression (as from now()), shows what
# re-evaluating that expression for every row the index returns costs.
windows=('1 minute' '1 hour' '1 day')
styles=(operator bounds filter stable)
range_where() { # style, start, end
	case $1 in
	operator) echo "id <@ tstzrange('$2', '$3')" ;;
	stable) echo "id <@ tstzrange('$2'::timestamptz + (now() - now()), '$3'::timestamptz + (now() - now()))" ;;
	bounds) echo "id >= uuid_v7_lower_bound('$2') AND id < uuid_v7_lower_bound('$3')" ;;
	filter) echo "uuid_timestamp(id) >= '$2' AND uuid_timestamp(id) < '$3'" ;;
	esac
}
measure_ranges() {
	say "5. time ranges: $range_rows rows over 30 days, windows ${windows[*]}, $rounds rounds"
	psql_ -c 'CREATE TABLE tr (id uuid PRIMARY KEY, payload int)' \
		-c "INSERT INTO tr SELECT uuid_timestamptz_to_v7(now() - interval '30 days' + g * (interval '30 days' / $range_rows)), g
		    FROM generate_series(1, $range_rows) g" -c 'VACUUM ANALYZE tr'
	range_start=$(psql_ -Atc "SELECT date_trunc('second', now() - interval '15 days')")
	local r i w st end shape sql
	for w in "${windows[@]}"; do
		end=$(psql_ -Atc "SELECT '$range_start'::timestamptz + interval '$w'")
		for shape in sum count; do
			for ((r = 0; r < rounds; r++)); do
				for ((i = 0; i < ${#styles[@]}; i++)); do
					st=$(nth $r $i "${styles[@]}")
					sql="SELECT $shape($([ $shape = sum ] && echo payload || echo '*')) FROM tr WHERE $(range_where "$st" "$range_start" "$end")"
					echo "range-${w// /_}-$shape $st $r $(time_sql "$sql" "$sql")" >>"$res/raw.txt"
				done
			done
		done
		for st in "${styles[@]}"; do
			sql="SELECT sum(payload) FROM tr WHERE $(range_where "$st" "$range_start" "$end")"
			{
				echo "-- $w, $st"
				psql_ -Atc "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) $sql"
				echo
			} >>"$res/explain.txt"
			# estimated and actual rows of the scan under the aggregate
			echo "$w|$st|$(psql_ -Atc "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF, FORMAT JSON) $sql" |
				sed -n 's/.*"Plan Rows": \([0-9]*\).*/\1/p;s/.*"Actual Rows": \([0-9]*\).*/\1/p;s/.*"Node Type": "\(.*\)".*/\1/p' |
				sed -n '4,6p' | paste -sd'|')" >>"$res/range_plans.txt"
		done
	done
}
report_ranges() {
	local w shape o b f t
	printf '\n5. Time ranges: %s v7 rows over 30 days, windows from %s; median ms of %s rounds\n' "$range_rows" "$range_start" "$rounds"
	printf '%-9s %-6s %10s %10s %10s %12s %12s %12s\n' window query "<@ ms" "bounds ms" "filter ms" "<@/bounds" "filter/<@" "stable/bounds"
	for w in "${windows[@]}"; do
		for shape in sum count; do
			o=$(median "range-${w// /_}-$shape" operator) b=$(median "range-${w// /_}-$shape" bounds)
			f=$(median "range-${w// /_}-$shape" filter) t=$(median "range-${w// /_}-$shape" stable)
			echo "${w// /_} $shape $o $b $f $(calc "$o / $b") $(calc "$f / $o") $t $(calc "$t / $b")" >>"$res/ranges.dat"
			printf '%-9s %-6s %10.2f %10.2f %10.1f %12.3f %12.1f %12.3f\n' "$w" "$shape" "$o" "$b" "$f" "$(calc "$o / $b")" "$(calc "$f / $o")" "$(calc "$t / $b")"
		done
	done
	echo "(sum: SELECT sum(payload) ...; count: SELECT count(*) ...; <@: id <@ tstzrange(a, b); bounds: id >= uuid_v7_lower_bound(a)"
	echo " AND id < uuid_v7_lower_bound(b); filter: uuid_timestamp(id) >= a AND uuid_timestamp(id) < b;"
	echo " stable: id <@ tstzrange(a + (now() - now()), b + (now() - now())), bounds computed again for every row the index returns)"
	printf '\nPlans of the sum queries (scan node, estimated rows, actual rows; full EXPLAIN ANALYZE in explain.txt):\n'
	awk -F'|' '{ printf "%-9s %-9s %-18s %10s %10s\n", $1, $2, $3, $4, $5 }' "$res/range_plans.txt"
}

# 6. Time queries as users write them: the newest or oldest rows of a
# window with LIMIT, all its rows, and a count, on KEYORDER_ROWS v7 keys over 60 days up
# to now, in a table that says nothing of its keys (ko), in one whose CHECK
# constraints declare them v7 of the RFC variant (kod), and in one that
# declares nothing and also holds a v6 key for every ninth v7 (kom); each
# way users write it against hand-written bounds on the same table (for
# kom, a UNION ALL of the v7 and the v6 key ranges).  Windows: the last
# hour, built with now() and open towards the future as users write it
# (on kom closed at now() as well, since its v6 keys all sort above an
# open window's v7 range, for bounds and scan alike), and one day 40 days
# back.  The forms of one query run in one pgbench session each
# round, drawn at random per statement (latency_mixed), so that their
# ratios do not depend on when each ran.  Planning time: EXPLAIN's, median
# of 15.
keyorder_windows() { # table: its windows
	case $1 in
	kom) echo last_hour last_hour_open day_40_back ;;
	*) echo last_hour day_40_back ;;
	esac
}
keyorder_queries=(desc10 asc10 rows count)
keyorder_styles() { # table: the ways it is asked, the hand-written bounds last
	case $1 in
	ko) echo operator v7_to_timestamptz bounds ;;
	kod) echo operator uuid_timestamp ${core_v7:+uuid_extract_timestamp} bounds ;;
	kom) echo operator bounds ;;
	esac
}
keyorder_sql() { # table, style, window, query
	local a b where select tail= fn
	case $3 in
	last_hour) a="now() - interval '1 hour'" b=$([ "$1" = kom ] && echo "now()" || echo NULL) ;;
	last_hour_open) a="now() - interval '1 hour'" b=NULL ;;
	day_40_back) a="'$keyorder_day'::timestamptz" b="'$keyorder_day'::timestamptz + interval '1 day'" ;;
	esac
	case $4 in
	desc10) select="sum(payload) FROM (SELECT payload FROM $1"; tail=" ORDER BY id DESC LIMIT 10) s" ;;
	asc10) select="sum(payload) FROM (SELECT payload FROM $1"; tail=" ORDER BY id LIMIT 10) s" ;;
	rows) select="sum(payload) FROM $1" ;;
	count) select="count(*) FROM $1" ;;
	esac
	case $2 in
	operator) where="id <@ tstzrange($a, $b)" ;;
	uuid_timestamp | v7_to_timestamptz | uuid_extract_timestamp)
		fn=$([ "$2" = v7_to_timestamptz ] && echo uuid_v7_to_timestamptz || echo "$2")
		where="$fn(id) >= $a"
		[ "$b" = NULL ] || where="$where AND $fn(id) < $b" ;;
	bounds)
		where="id >= uuid_v7_lower_bound($a)"
		[ "$b" = NULL ] || where="$where AND id < uuid_v7_lower_bound($b)"
		if [ "$1" = kom ]; then
			# and the v6 keys' range, as uuidx computes its bounds
			local v6="id >= uuidx_time_bound(tstzrange($a, $b), 6, false) AND id <= uuidx_time_bound(tstzrange($a, $b), 6, true)"
			case $4 in
			count) echo "SELECT (SELECT count(*) FROM kom WHERE $where) + (SELECT count(*) FROM kom WHERE $v6)"; return ;;
			rows) echo "SELECT (SELECT sum(payload) FROM kom WHERE $where) + (SELECT sum(payload) FROM kom WHERE $v6)"; return ;;
			*) echo "SELECT sum(payload) FROM (SELECT payload, id FROM kom WHERE $where UNION ALL SELECT payload, id FROM kom WHERE $v6 ORDER BY id $([ "$4" = desc10 ] && echo DESC) LIMIT 10) s"; return ;;
			esac
		fi ;;
	esac
	echo "SELECT $select WHERE $where$tail"
}
plan_ms() { # median planning time of SQL $1, from EXPLAIN, 15 times
	local i
	for ((i = 0; i < 15; i++)); do echo "EXPLAIN (SUMMARY ON, COSTS OFF) $1;"; done |
		psql_ -At | sed -n 's/^Planning Time: \([0-9.]*\) ms$/\1/p' | sort -g | sed -n 8p
}
measure_keyorder() {
	say "6. time queries as users write them: $keyorder_rows rows over 60 days, pgbench -T $keyorder_secs, $rounds rounds"
	psql_ -c 'CREATE TABLE ko (id uuid PRIMARY KEY, payload int)' \
		-c 'CREATE TABLE kod (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), payload int)' \
		-c 'CREATE TABLE kom (id uuid PRIMARY KEY, payload int)' \
		-c "INSERT INTO ko SELECT uuid_timestamptz_to_v7(now() - interval '60 days' + g * (interval '60 days' / $keyorder_rows)), g
		    FROM generate_series(1, $keyorder_rows) g" -c 'INSERT INTO kod SELECT * FROM ko' \
		-c 'INSERT INTO kom SELECT * FROM ko' \
		-c "INSERT INTO kom SELECT uuidx_time_bound(tstzrange(t, t, '[]'), 6, false), -g
		    FROM (SELECT g, now() - interval '60 days' + g * (interval '60 days' / ($keyorder_rows / 9)) + interval '7 microseconds' AS t
		          FROM generate_series(1, $keyorder_rows / 9) g) s" \
		-c 'VACUUM ANALYZE ko, kod, kom'
	keyorder_day=$(psql_ -Atc "SELECT date_trunc('day', now() - interval '40 days')")
	local r i w q t st sql styles sqls ms out
	for t in $keyorder_tables; do
		read -ra styles <<<"$(keyorder_styles $t)"
		for w in $(keyorder_windows $t); do
			for q in "${keyorder_queries[@]}"; do
				sqls=()
				for st in "${styles[@]}"; do sqls+=("$(keyorder_sql $t "$st" "$w" "$q")"); done
				for ((r = 0; r < rounds; r++)); do
					out=$(latency_mixed "$keyorder_secs" "${sqls[@]}")
					mapfile -t ms <<<"$out"
					for ((i = 0; i < ${#styles[@]}; i++)); do
						echo "keyorder-$t-$w-$q ${styles[$i]} $r ${ms[$i]}" >>"$res/raw.txt"
					done
				done
				for ((i = 0; i < ${#styles[@]}; i++)); do
					st=${styles[$i]} sql=${sqls[$i]}
					echo "keyorder-$t-$w-$q plan-$st 0 $(plan_ms "$sql")" >>"$res/raw.txt"
					{
						echo "-- $t, $w, $q, $st"
						psql_ -Atc "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF, COSTS OFF) $sql"
						echo
					} >>"$res/explain_keyorder.txt"
				done
			done
		done
	done
}
report_keyorder() {
	local t w q st m b styles
	printf '\n6. Time queries as users write them: %s v7 rows over 60 days up to now; ms per statement (pgbench -M simple -T %s latency average, the forms of a query drawn at random in one run), median of %s rounds; planning ms (EXPLAIN, median of 15)\n' "$keyorder_rows" "$keyorder_secs" "$rounds"
	printf '%-10s %-14s %-7s %-22s %9s %9s %9s %8s %8s\n' table window query form "ms" "bounds" "ratio" "plan" "bounds"
	for t in $keyorder_tables; do
		read -ra styles <<<"$(keyorder_styles $t)"
		for w in $(keyorder_windows $t); do
			for q in "${keyorder_queries[@]}"; do
				b=$(median "keyorder-$t-$w-$q" bounds)
				for st in "${styles[@]}"; do
					[ "$st" = bounds ] && continue
					m=$(median "keyorder-$t-$w-$q" "$st")
					echo "$t $w $q $st $m $b $(calc "$m / $b") $(median "keyorder-$t-$w-$q" "plan-$st") $(median "keyorder-$t-$w-$q" plan-bounds)" >>"$res/keyorder.dat"
					printf '%-10s %-14s %-7s %-22s %9.3f %9.3f %9.2f %8.3f %8.3f\n' \
						"$(case $t in ko) echo undeclared ;; kod) echo declared ;; kom) echo "v6 and v7" ;; esac)" \
						"$w" "$q" "$st" "$m" "$b" "$(calc "$m / $b")" \
						"$(median "keyorder-$t-$w-$q" "plan-$st")" "$(median "keyorder-$t-$w-$q" plan-bounds)"
				done
			done
		done
	done
	echo "(desc10/asc10: the payload of the 10 newest/oldest rows of the window, ORDER BY id [DESC] LIMIT 10; rows: sum(payload)"
	echo " of all its rows; count: count(*);"
	echo " operator: id <@ tstzrange(a, b); uuid_timestamp, uuid_extract_timestamp (core's, 18 and later) and v7_to_timestamptz:"
	echo " uuid_timestamp(id), uuid_extract_timestamp(id) or uuid_v7_to_timestamptz(id)"
	echo " >= a [AND < b]; bounds: id >= uuid_v7_lower_bound(a) [AND id < uuid_v7_lower_bound(b)], for v6 and v7 a UNION ALL with"
	echo " the v6 keys' range; last_hour: a = now() - 1 hour, b open (now() on v6 and v7; last_hour_open: b open there too);"
	echo " declared: CHECK (uuid_version(id) = 7"
	echo " AND uuid_variant(id) = 2); plans in explain_keyorder.txt)"
}

# 9. Time queries that keep PostgreSQL's rules (release 1.3.1), each
# against hand-written bounds on the same table in the same pgbench run:
# - partitions: RULES_ROWS v7 keys over 7 and over 367 daily partitions
#   (rp7, rp367: the key declares nothing; rp7d, rp367d: declared v7 of the
#   RFC variant), the last hour's count: planning (EXPLAIN, median of 15)
#   and statements.  id <@ r on a column that declares nothing reads v6
#   keys too: its bounds are two ranges, ORed;
# - an outer join whose WHERE rejects the nullable side's NULL keys
#   (rules_o LEFT JOIN rules_e: reduced to an inner join);
# - a sparse key (one row in 500) with a partial index WHERE ref IS NOT NULL;
# - keyset pages: every page of 10 of a day 40 days back, newest first,
#   id <@ r AND id < $last, in one PL/pgSQL loop (a generic plan);
# - estimates: planned / actual rows, for a window computed from now() on
#   both sides, a window open towards the future on a column with one key
#   ten years ahead, a column moving from v4 to v7 keys, and rows inserted
#   since ANALYZE.
rules_setup() {
	local t n d decl
	for t in rp7 rp367 rp7d rp367d; do
		n=${t#rp}; n=${n%d}
		decl=
		[ "${t: -1}" = d ] && decl="CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2)"
		psql_ <<SQL
CREATE TABLE $t (id uuid NOT NULL $decl, payload int, PRIMARY KEY (id)) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', '${t}_' || d, '$t',
              uuid_v7_lower_bound(date_trunc('day', now()) - ($n - 2 - d) * interval '1 day'),
              uuid_v7_lower_bound(date_trunc('day', now()) - ($n - 3 - d) * interval '1 day'))
FROM generate_series(0, $n - 1) d \gexec
INSERT INTO $t SELECT uuid_timestamptz_to_v7(t), g
FROM (SELECT g, date_trunc('day', now()) - ($n - 2) * interval '1 day'
                + g * ((now() - date_trunc('day', now()) + ($n - 2) * interval '1 day') / $rules_rows) AS t
      FROM generate_series(1, $rules_rows) g) s;
VACUUM ANALYZE $t;
SQL
	done
	psql_ <<SQL
CREATE TABLE rules_o (n int PRIMARY KEY, name text);
INSERT INTO rules_o SELECT g, 'n' || g FROM generate_series(1, 10000) g;
CREATE TABLE rules_e (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), n int, ref uuid);
INSERT INTO rules_e SELECT uuid_timestamptz_to_v7(t), g % 10000 + 1, CASE WHEN g % 500 = 0 THEN uuid_timestamptz_to_v7(t) END
FROM (SELECT g, now() - interval '60 days' + g * (interval '60 days' / $rules_rows) AS t FROM generate_series(1, $rules_rows) g) s;
CREATE INDEX ON rules_e (n);
CREATE INDEX rules_e_ref ON rules_e (ref) WHERE ref IS NOT NULL;
CREATE TABLE rules_k (id uuid PRIMARY KEY, payload int);
INSERT INTO rules_k SELECT id, n FROM rules_e;
-- estimates
CREATE TABLE rules_ahead (id uuid PRIMARY KEY);
INSERT INTO rules_ahead SELECT id FROM rules_e UNION ALL SELECT uuid_timestamptz_to_v7(now() + interval '10 years');
CREATE TABLE rules_moved (id uuid PRIMARY KEY CHECK (uuid_version(id) IN (4, 7)));
INSERT INTO rules_moved SELECT id FROM rules_e WHERE n % 2 = 0 UNION ALL SELECT gen_random_uuid() FROM generate_series(1, $rules_rows / 2);
CREATE TABLE rules_newer (id uuid PRIMARY KEY);
INSERT INTO rules_newer SELECT id FROM rules_e;
-- uuidx's v8 keys, which begin with the millisecond as v7 keys do: alone,
-- and beside v7 keys of the same times
CREATE TABLE rules_v8 (id uuid PRIMARY KEY);
INSERT INTO rules_v8 SELECT uuid_generate_v8() FROM generate_series(1, $rules_rows / 10);
CREATE TABLE rules_78 (id uuid PRIMARY KEY);
INSERT INTO rules_78 SELECT id FROM rules_e
  UNION ALL SELECT uuid_v8_from_parts((extract(epoch FROM uuid_timestamp(id)) * 1000)::bigint, n % 4096, n) FROM rules_e;
-- a partial index on the form, on a key declared v7 (rules_pd) and on one
-- that declares nothing (rules_pu: uuid_timestamp left as written)
CREATE TABLE rules_pd (id uuid NOT NULL CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), n int);
INSERT INTO rules_pd SELECT id, n FROM rules_e;
CREATE INDEX ON rules_pd (id) WHERE uuid_timestamp(id) >= '$rules_since';
CREATE TABLE rules_pu (id uuid NOT NULL, n int);
INSERT INTO rules_pu SELECT id, n FROM rules_e;
CREATE INDEX ON rules_pu (id) WHERE uuid_timestamp(id) >= '$rules_since';
VACUUM ANALYZE rules_o, rules_e, rules_k, rules_ahead, rules_moved, rules_newer, rules_v8, rules_78, rules_pd, rules_pu;
INSERT INTO rules_newer SELECT uuid_generate_v7() FROM generate_series(1, $rules_rows / 50);
CREATE FUNCTION rules_pages(operator boolean) RETURNS int LANGUAGE plpgsql AS \$\$
DECLARE
  last uuid := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
  a timestamptz := date_trunc('day', now() - interval '40 days');
  pages int := 0;
  page uuid;
BEGIN
  LOOP
    IF operator THEN
      SELECT min(id) INTO page FROM (SELECT id FROM rules_k WHERE id <@ tstzrange(a, a + interval '1 day') AND id < last
                                     ORDER BY id DESC LIMIT 10) s;
    ELSE
      SELECT min(id) INTO page FROM (SELECT id FROM rules_k WHERE id >= uuid_v7_lower_bound(a)
                                       AND id < uuid_v7_lower_bound(a + interval '1 day') AND id < last
                                     ORDER BY id DESC LIMIT 10) s;
    END IF;
    EXIT WHEN page IS NULL;
    pages := pages + 1;
    last := page;
  END LOOP;
  RETURN pages;
END \$\$;
-- the same pages as a row comparison, (id, payload) < (last key, its payload)
CREATE FUNCTION rules_row_pages(operator boolean) RETURNS int LANGUAGE plpgsql AS \$\$
DECLARE
  last uuid := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
  last_payload int := 0;
  a timestamptz := date_trunc('day', now() - interval '40 days');
  pages int := 0;
  page record;
BEGIN
  LOOP
    IF operator THEN
      SELECT id, payload INTO page FROM (SELECT id, payload FROM rules_k WHERE id <@ tstzrange(a, a + interval '1 day')
                                          AND (id, payload) < (last, last_payload) ORDER BY id DESC, payload DESC LIMIT 10) s
      ORDER BY id, payload LIMIT 1;
    ELSE
      SELECT id, payload INTO page FROM (SELECT id, payload FROM rules_k WHERE id >= uuid_v7_lower_bound(a)
                                          AND id < uuid_v7_lower_bound(a + interval '1 day')
                                          AND (id, payload) < (last, last_payload) ORDER BY id DESC, payload DESC LIMIT 10) s
      ORDER BY id, payload LIMIT 1;
    END IF;
    EXIT WHEN page.id IS NULL;
    pages := pages + 1;
    last := page.id;
    last_payload := page.payload;
  END LOOP;
  RETURN pages;
END \$\$;
SQL
	# partitioned by the form, 367 daily partitions: by uuid_v7_to_timestamptz
	# (rules_tp) and, as uuidx leaves it as written, by uuid_timestamp on a key
	# that declares nothing (rules_tpu)
	for t in rules_tp rules_tpu; do
		local fn=uuid_v7_to_timestamptz
		[ $t = rules_tpu ] && fn=uuid_timestamp
		psql_ <<SQL
CREATE TABLE $t (id uuid NOT NULL, payload int) PARTITION BY RANGE ($fn(id));
SELECT format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', '${t}_' || d, '$t',
              date_trunc('day', now()) - (365 - d) * interval '1 day', date_trunc('day', now()) - (364 - d) * interval '1 day')
FROM generate_series(0, 366) d \gexec
INSERT INTO $t SELECT id, payload FROM rp367;
VACUUM ANALYZE $t;
SQL
	done
}
rules_cases=(p7_op p7_form p7d_op p7d_form p367_op p367_form p367d_op p367d_form outer_join outer_join_op partial partial_op
	tp_day tp_now partial_form order_tie)
# A time a day and a half back, for the partial indexes on the form (a
# constant, as an index predicate is), and a day 40 days back.
rules_since=$(date -u -d '36 hours ago' '+%Y-%m-%d %H:00+00')
rules_asked=$(date -u -d '24 hours ago' '+%Y-%m-%d %H:00+00')
rules_day=$(date -u -d '40 days ago' '+%Y-%m-%d+00')
rules_sql() { # case, bounds (1: the hand-written bounds)
	local t a="now() - interval '1 hour'" b="now()"
	case $1 in
	p[0-9]*) t=r${1%_*}
		if [ "$2" = 1 ] && [[ $t != *d ]] && [ "${1#*_}" = op ]; then
			# undeclared, id <@ r: v7 and v6 keys, two ranges
			echo "SELECT count(*) FROM $t WHERE (id >= uuid_v7_lower_bound($a) AND id < uuid_v7_lower_bound($b)) OR (id >= uuidx_time_bound($a, $b, '[)', 6, false) AND id <= uuidx_time_bound($a, $b, '[)', 6, true))"
		elif [ "$2" = 1 ]; then
			echo "SELECT count(*) FROM $t WHERE id >= uuid_v7_lower_bound($a) AND id < uuid_v7_lower_bound($b)"
		elif [ "${1#*_}" = op ]; then
			echo "SELECT count(*) FROM $t WHERE id <@ tstzrange($a, $b)"
		else
			local fn=uuid_timestamp
			[[ $t == *d ]] || fn=uuid_v7_to_timestamptz
			echo "SELECT count(*) FROM $t WHERE $fn(id) >= $a AND $fn(id) < $b"
		fi ;;
	outer_join*)
		if [ "$2" = 1 ]; then echo "SELECT count(e.id) FROM rules_o o LEFT JOIN rules_e e ON e.n = o.n WHERE e.id >= uuid_v7_lower_bound($a)"
		elif [ "$1" = outer_join ]; then echo "SELECT count(e.id) FROM rules_o o LEFT JOIN rules_e e ON e.n = o.n WHERE uuid_timestamp(e.id) >= $a"
		else echo "SELECT count(e.id) FROM rules_o o LEFT JOIN rules_e e ON e.n = o.n WHERE e.id <@ tstzrange($a, NULL)"; fi ;;
	tp_*) # the bounds: the table partitioned by the form left as written
		local fn=uuid_v7_to_timestamptz
		t=rules_tp
		[ "$2" = 1 ] && t=rules_tpu fn=uuid_timestamp
		[ "$1" = tp_day ] && a="'$rules_day'" b="'$rules_day'::timestamptz + interval '1 day'"
		echo "SELECT count(*) FROM $t WHERE $fn(id) >= $a AND $fn(id) < $b" ;;
	partial_form) # the bounds: the key that declares nothing, left as written
		t=rules_pd; [ "$2" = 1 ] && t=rules_pu
		echo "SELECT id FROM $t WHERE uuid_timestamp(id) >= '$rules_asked' ORDER BY id DESC LIMIT 10" ;;
	order_tie)
		a="now() - interval '1 day'"
		if [ "$2" = 1 ]; then echo "SELECT id FROM rules_e WHERE id >= uuid_v7_lower_bound($a) ORDER BY id DESC LIMIT 10"
		else echo "SELECT id FROM rules_e WHERE uuid_timestamp(id) >= $a ORDER BY uuid_timestamp(id) DESC, id DESC LIMIT 10"; fi ;;
	partial*)
		a="now() - interval '1 day'"
		if [ "$2" = 1 ] && [ "$1" = partial_op ]; then
			echo "SELECT count(*) FROM rules_e WHERE (ref >= uuid_v7_lower_bound($a) AND ref <= uuidx_time_bound($a, NULL, '[)', 7, true)) OR ref >= uuidx_time_bound($a, NULL, '[)', 6, false)"
		elif [ "$2" = 1 ]; then echo "SELECT count(*) FROM rules_e WHERE ref >= uuid_v7_lower_bound($a)"
		elif [ "$1" = partial ]; then echo "SELECT count(*) FROM rules_e WHERE uuid_v7_to_timestamptz(ref) >= $a"
		else echo "SELECT count(*) FROM rules_e WHERE ref <@ tstzrange($a, NULL)"; fi ;;
	esac
}
measure_rules() {
	say "9. PostgreSQL's rules: $rules_rows rows a table, pgbench -T $keyorder_secs, $rounds rounds"
	rules_setup
	local c r ms out
	for c in "${rules_cases[@]}"; do
		for ((r = 0; r < rounds; r++)); do
			out=$(latency_mixed "$keyorder_secs" "$(rules_sql $c 0)" "$(rules_sql $c 1)")
			mapfile -t ms <<<"$out"
			echo "rules-$c form $r ${ms[0]}" >>"$res/raw.txt"
			echo "rules-$c bounds $r ${ms[1]}" >>"$res/raw.txt"
		done
		echo "rules-$c plan-form 0 $(plan_ms "$(rules_sql $c 0)")" >>"$res/raw.txt"
		echo "rules-$c plan-bounds 0 $(plan_ms "$(rules_sql $c 1)")" >>"$res/raw.txt"
		{
			echo "-- $c"
			psql_ -Atc "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF, COSTS OFF) $(rules_sql $c 0)"
			echo
		} >>"$res/explain_rules.txt"
	done
	for ((r = 0; r < rounds; r++)); do
		for c in true false; do
			echo "rules-keyset $([ $c = true ] && echo form || echo bounds) $r $(time_sql "SELECT rules_pages($c)" "SELECT rules_pages($c)")" >>"$res/raw.txt"
			echo "rules-rowkeyset $([ $c = true ] && echo form || echo bounds) $r $(time_sql "SELECT rules_row_pages($c)" "SELECT rules_row_pages($c)")" >>"$res/raw.txt"
		done
	done
	psql_ -Atc "SELECT rules_row_pages(true), rules_row_pages(false)" >>"$res/explain_rules.txt"
	psql_ -At -F' ' >"$res/rules_estimates.dat" <<'SQL'
CREATE FUNCTION pg_temp.rows_estimated(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan json; actual bigint;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
  EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO actual;
  RETURN (plan->0->'Plan'->>'Plan Rows') || ' ' || actual;
END $$;
SELECT c, pg_temp.rows_estimated(q) FROM (VALUES
  ('now_both_sides', $q$SELECT * FROM rules_k WHERE uuid_v7_to_timestamptz(id) >= now() - interval '40 days' AND uuid_v7_to_timestamptz(id) < now() - interval '39 days'$q$),
  ('between_now', $q$SELECT * FROM rules_e WHERE uuid_timestamp(id) BETWEEN now() - interval '40 days' AND now() - interval '39 days'$q$),
  ('one_key_ahead', $q$SELECT * FROM rules_ahead WHERE id <@ tstzrange(now() - interval '1 day', NULL)$q$),
  ('v4_and_v7', $q$SELECT * FROM rules_moved WHERE uuid_timestamp(id) >= now() - interval '1 hour'$q$),
  ('past_analyze', $q$SELECT * FROM rules_newer WHERE id <@ tstzrange(now() - interval '12 hours', now())$q$),
  ('v8_only', $q$SELECT * FROM rules_v8 WHERE id <@ tstzrange(now() - interval '1 hour', now())$q$),
  ('v7_and_v8', $q$SELECT * FROM rules_78 WHERE id <@ tstzrange(now() - interval '1 day', now())$q$)) v(c, q);
SQL
}
report_rules() {
	local c m b
	printf '\n9. Time queries that keep PostgreSQL'"'"'s rules: %s rows a table; ms per statement (pgbench -M simple -T %s, form and bounds drawn at random in one run), median of %s rounds; planning ms (EXPLAIN, median of 15)\n' "$rules_rows" "$keyorder_secs" "$rounds"
	printf '%-16s %9s %9s %7s %8s %8s %7s\n' case "ms" "bounds" ratio "plan" "bounds" ratio
	for c in "${rules_cases[@]}"; do
		m=$(median "rules-$c" form) b=$(median "rules-$c" bounds)
		echo "$c $m $b $(calc "$m / $b") $(median "rules-$c" plan-form) $(median "rules-$c" plan-bounds) $(calc "$(median "rules-$c" plan-form) / $(median "rules-$c" plan-bounds)")" >>"$res/rules.dat"
		printf '%-16s %9.3f %9.3f %7.2f %8.3f %8.3f %7.2f\n' "$c" "$m" "$b" "$(calc "$m / $b")" \
			"$(median "rules-$c" plan-form)" "$(median "rules-$c" plan-bounds)" \
			"$(calc "$(median "rules-$c" plan-form) / $(median "rules-$c" plan-bounds)")"
	done
	m=$(median rules-keyset form) b=$(median rules-keyset bounds)
	echo "keyset $m $b $(calc "$m / $b")" >>"$res/rules.dat"
	printf '%-16s %9.1f %9.1f %7.2f   (every page of a day 40 days back, ms in all)\n' keyset_pages "$m" "$b" "$(calc "$m / $b")"
	m=$(median rules-rowkeyset form) b=$(median rules-rowkeyset bounds)
	echo "rowkeyset $m $b $(calc "$m / $b")" >>"$res/rules.dat"
	printf '%-16s %9.1f %9.1f %7.2f   (the same, (id, payload) < (last key, its payload))\n' row_pages "$m" "$b" "$(calc "$m / $b")"
	printf '\nestimates: %-16s %10s %10s %7s\n' case planned actual ratio
	while read -r c e a; do
		printf '           %-16s %10s %10s %7.2f\n' "$c" "$e" "$a" "$(calc "$e / ($a > 0 ? $a : 1)")"
	done <"$res/rules_estimates.dat"
	echo "(p7, p367: 7 or 367 daily partitions of a key that declares nothing; p7d, p367d: declared v7 of the RFC variant;"
	echo " op: id <@ tstzrange(now() - interval '1 hour', now()), bounds two ranges ORed where the key declares nothing;"
	echo " form: uuid_v7_to_timestamptz(id) (undeclared) or uuid_timestamp(id) (declared) >= now() - 1 hour AND < now();"
	echo " outer_join: count(e.id) FROM o LEFT JOIN e WHERE uuid_timestamp(e.id) >= now() - 1 hour (_op: e.id <@ r);"
	echo " partial: a sparse key with a partial index, uuid_v7_to_timestamptz(ref) >= now() - 1 day (_op: ref <@ r, against two ranges);"
	echo " tp_day, tp_now: 367 daily partitions BY RANGE (uuid_v7_to_timestamptz(id)), a day 40 days back, the last hour;"
	echo "   bounds: the same table BY RANGE (uuid_timestamp(id)) with nothing declared, which uuidx leaves as written;"
	echo " partial_form: newest 10 above a partial index's WHERE uuid_timestamp(id) >= a constant, key declared v7;"
	echo "   bounds: the same on a key that declares nothing (left as written);"
	echo " order_tie: ORDER BY uuid_timestamp(id) DESC, id DESC LIMIT 10 of the last day, declared (bounds: ORDER BY id DESC);"
	echo " plans in explain_rules.txt)"
}

# 7. The mark in WAL: the cost per value of uuid_generate_v7() with
# uuidx.wal_log_mark off and on, and the WAL written per second while one
# session generates without a pause (the only WAL it causes is the mark's).
measure_mark_wal() {
	say "7. the mark in WAL: uuidx.wal_log_mark off and on, $rounds rounds"
	local r i setting ms lsn0 lsn1 t0 t1
	for ((r = 0; r < rounds; r++)); do
		for ((i = 0; i < 2; i++)); do
			setting=$(nth $r $i off on)
			psql_ -c "ALTER SYSTEM SET uuidx.wal_log_mark = $setting" -c 'SELECT pg_reload_conf()' >/dev/null
			sleep 0.5
			ms=$(time_sql "SELECT count(uuid_generate_v7()) FROM generate_series(1, 1000)" "SELECT count(uuid_generate_v7()) FROM generate_series(1, $rows)")
			echo "markwal-cost $setting $r $(calc "$ms * 1e6 / $rows")" >>"$res/raw.txt"
			read -r lsn0 t0 lsn1 t1 < <(psql_ -At -F' ' <<SQL | paste -sd' '
SELECT pg_current_wal_insert_lsn() - '0/0', extract(epoch FROM clock_timestamp());
SELECT count(uuid_generate_v7()) FROM generate_series(1, $rows) \g /dev/null
SELECT pg_current_wal_insert_lsn() - '0/0', extract(epoch FROM clock_timestamp());
SQL
			)
			echo "markwal-bytes $setting $r $(calc "($lsn1 - $lsn0) / ($t1 - $t0)")" >>"$res/raw.txt"
		done
	done
	psql_ -c 'ALTER SYSTEM RESET uuidx.wal_log_mark' -c 'SELECT pg_reload_conf()' >/dev/null
}
report_mark_wal() {
	local off on boff bon
	off=$(median markwal-cost off) on=$(median markwal-cost on)
	boff=$(median markwal-bytes off) bon=$(median markwal-bytes on)
	printf '\n7. The mark in WAL: uuid_generate_v7(), one session without a pause; median of %s rounds\n' "$rounds"
	printf '%-22s %10s %14s\n' uuidx.wal_log_mark "ns/value" "WAL bytes/s"
	printf '%-22s %10.1f %14.0f\n' off "$off" "$boff" on "$on" "$bon"
	echo "off $off $boff" >>"$res/mark_wal.dat"
	echo "on $on $bon" >>"$res/mark_wal.dat"
	printf 'on / off, per value: %.3f\n' "$(calc "$on / $off")"
}

# 8. Release 1.2's functions, per value over a table of ROWS stored v7
# values (beyond reading it), against uuid_generate_v7() called once per
# row of the same table; and max(id) of KEYORDER_ROWS keys from the primary
# key against ORDER BY id DESC LIMIT 1.
fns12=(read generate mask unmask to_ulid from_ulid)
fn12_sql() {
	case $1 in
	read) echo "SELECT count(u) FROM f12" ;;
	generate) echo "SELECT count(uuid_generate_v7()) FROM f12" ;;
	mask) echo "SELECT count(uuid_v7_mask(u, '\x00112233445566778899aabbccddeeff')) FROM f12" ;;
	unmask) echo "SELECT count(uuid_v7_unmask(m, '\x00112233445566778899aabbccddeeff')) FROM f12" ;;
	to_ulid) echo "SELECT count(uuid_to_ulid(u)) FROM f12" ;;
	from_ulid) echo "SELECT count(ulid_to_uuid(t)) FROM f12" ;;
	esac
}
measure_12() {
	say "8. release 1.2's functions: $rows stored values, $rounds rounds"
	psql_ -c "CREATE TABLE f12 AS SELECT u, uuid_v7_mask(u, '\x00112233445566778899aabbccddeeff') AS m, uuid_to_ulid(u) AS t
		    FROM (SELECT uuid_generate_v7() AS u FROM generate_series(1, $rows)) s" -c 'VACUUM ANALYZE f12'
	local r i f sql
	for ((r = 0; r < rounds; r++)); do
		for ((i = 0; i < ${#fns12[@]}; i++)); do
			f=$(nth $r $i "${fns12[@]}")
			sql=$(fn12_sql "$f")
			echo "fn12 $f $r $(time_sql "$sql" "$sql")" >>"$res/raw.txt"
		done
		if [[ $sections == *" 6 "* ]]; then
			for ((i = 0; i < 2; i++)); do
				f=$(nth $r $i max_id order_limit)
				[ "$f" = max_id ] && sql='SELECT max(id) FROM ko' || sql='SELECT id FROM ko ORDER BY id DESC LIMIT 1'
				echo "maxid $f $r $(time_sql "$sql" "$sql")" >>"$res/raw.txt"
			done
		fi
	done
}
report_12() {
	local base gen f m
	base=$(median fn12 read) gen=$(median fn12 generate)
	printf '\n8. Release 1.2: ns per value beyond reading %s stored values; median of %s rounds\n' "$rows" "$rounds"
	printf '%-32s %10s %20s\n' function "ns/value" "x uuid_generate_v7()"
	for f in generate mask unmask to_ulid from_ulid; do
		m=$(calc "($(median fn12 $f) - $base) * 1e6 / $rows")
		echo "$f $m" >>"$res/fn12.dat"
		printf '%-32s %10.1f %20.2f\n' "$(fn12_sql $f | sed 's/SELECT count(\(.*\)) FROM f12/\1/')" "$m" "$(calc "$m / (($gen - $base) * 1e6 / $rows)")"
	done
	if [ -n "$(median maxid max_id)" ]; then
		printf 'max(id) of %s keys: %.3f ms; ORDER BY id DESC LIMIT 1: %.3f ms\n' "$keyorder_rows" "$(median maxid max_id)" "$(median maxid order_limit)"
	fi
}

# 10. Paused inserts: most tables are written a few rows a second, so the
# cost of a key after a pause matters more than its cost in bulk.  One
# session, one INSERT after each pgbench \sleep of 1.5 s or 0.3 s, into a
# table keyed by a uuid_generate_v7() default or into one keyed by bigint
# identity, the two scripts drawn at random in one pgbench run (-r: each
# INSERT's own latency, the sleep apart), with uuidx.wal_log_mark off and
# on.  And a bare SELECT uuid_generate_v7() after a 1.5 s pause against
# the same SELECT right after it, with gen_random_uuid() as the control
# (any statement after a pause meets cold caches), two scripts drawn at
# random in one pgbench run of the same length.
# One pgbench run of SECONDS in one session, the scripts drawn at random
# per transaction, -r: for each script, in the order given, the average
# latencies (ms) of its statements that begin with WORD, on one line.
script_latencies() {
	local secs=$1 word=$2 f args=() out
	shift 2
	for f in "$@"; do args+=(-f "$f@1"); done
	out=$("$PG_BINDIR/pgbench" -h "$dir" -U postgres -n -M simple -r -T "$secs" "${args[@]}" postgres 2>&1)
	out=$(awk -v w="$word" '/^SQL script [0-9]+:/ { if (line != "") print line; line = "" }
		$0 ~ "^ +[0-9.]+ +([0-9]+ +)?" w " " { line = line (line == "" ? "" : " ") $1 }
		END { if (line != "") print line }' <<<"$out")
	[ "$(wc -l <<<"$out")" = $# ] || { echo "pgbench gave no $word latencies: $*" >&2; exit 1; }
	echo "$out"
}
# Two scripts' latencies into raw.txt: pause_pair SECTION SETTING ROUND
# SECONDS WORD NAME1 SCRIPT1 NAME2 SCRIPT2.
pause_pair() {
	local t
	mapfile -t t < <(script_latencies "$4" "$5" "$7" "$9")
	[ ${#t[@]} = 2 ] || exit 1
	echo "$1 $6/$2 $3 ${t[0]}" >>"$res/raw.txt"
	echo "$1 $8/$2 $3 ${t[1]}" >>"$res/raw.txt"
}
# The setting, reloaded; then a value, so that no measured one is the
# first after a start or a change of the setting, which moves the mark.
pause_setting() {
	psql_ -c "ALTER SYSTEM SET uuidx.wal_log_mark = $1" -c 'SELECT pg_reload_conf()' >/dev/null
	sleep 0.5
	psql_ -c 'SELECT uuid_generate_v7()' >/dev/null
	sleep 1
}
measure_pauses() {
	say "10. paused inserts: pgbench -T $pause_secs at 1.5 s and -T $((pause_secs / 2)) at 0.3 s, $ins_rounds rounds"
	psql_ <<'SQL'
CREATE TABLE pause_v7 (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int);
CREATE TABLE pause_bigint (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, n int);
SQL
	local r i setting ms t secs f
	for ((r = 0; r < ins_rounds; r++)); do
		for ((i = 0; i < 2; i++)); do
			setting=$(nth $r $i off on)
			pause_setting "$setting"
			for ms in 1500 300; do
				secs=$pause_secs
				[ $ms = 300 ] && secs=$((pause_secs / 2))
				for t in v7 bigint; do
					printf '\\sleep %s ms\nINSERT INTO pause_%s (n) VALUES (1);\n' "$ms" "$t" >"$dir/pause_$t.sql"
				done
				pause_pair "pause-$ms" "$setting" $r "$secs" INSERT v7 "$dir/pause_v7.sql" bigint "$dir/pause_bigint.sql"
			done
			for f in uuid_generate_v7 gen_random_uuid; do
				printf '\\sleep 1500 ms\nSELECT %s();\nSELECT %s();\n' "$f" "$f" >"$dir/first_$f.sql"
			done
			pause_pair pause-first "$setting" $r "$pause_secs" SELECT \
				v7 "$dir/first_uuid_generate_v7.sql" random "$dir/first_gen_random_uuid.sql"
		done
	done
	psql_ -c 'ALTER SYSTEM RESET uuidx.wal_log_mark' -c 'SELECT pg_reload_conf()' >/dev/null
}
report_pauses() {
	local ms setting v b f a n
	printf '\n10. Paused inserts: one session, one INSERT after each pgbench \\sleep, ms per INSERT (-r), median of %s rounds\n' "$ins_rounds"
	printf '%-10s %-20s %10s %10s %8s\n' pause uuidx.wal_log_mark "v7 ms" "bigint ms" ratio
	for ms in 1500 300; do
		for setting in off on; do
			v=$(median "pause-$ms" "v7/$setting") b=$(median "pause-$ms" "bigint/$setting")
			echo "$ms $setting $v $b $(calc "$v / $b")" >>"$res/pause.dat"
			printf '%-10s %-20s %10.3f %10.3f %8.2f\n' "$ms ms" "$setting" "$v" "$b" "$(calc "$v / $b")"
		done
	done
	printf 'a SELECT after a 1.5 s pause and the same SELECT right after it, ms (-r, the averages of one run; median of %s rounds)\n' "$ins_rounds"
	printf '%-20s %-11s %10s %10s %8s\n' function uuidx.wal_log_mark "after" "next" ratio
	for setting in off on; do
		for f in v7 random; do
			a=$(median pause-first "$f/$setting") n=$(median pause-first "$f/$setting" 5)
			printf '%-20s %-11s %10.3f %10.3f %8.2f\n' "$([ $f = v7 ] && echo 'uuid_generate_v7()' || echo 'gen_random_uuid()')" "$setting" "$a" "$n" "$(calc "$a / $n")"
		done
		a=$(median pause-first "v7/$setting") n=$(median pause-first "random/$setting")
		echo "first $setting $a $n $(calc "$a / $n")" >>"$res/pause.dat"
	done
}

# 11. Replay: a standby, a crash recovery and a point-in-time recovery
# replay the mark's records with the WAL around them.  REPLAY_SECONDS of
# single-row inserts with a v7 default at 1,000 a second (pgbench -R),
# after a CHECKPOINT, then an immediate stop and a start: the crash
# recovery's redo, from "redo starts" to "redo done" in the server log,
# with uuidx.wal_log_mark off (the same WAL without uuidx's records) and
# on.
measure_replay() {
	say "11. replay: $replay_secs s of inserts at 1,000 a second, crash recovery, $ins_rounds rounds"
	psql_ -c 'CREATE TABLE replay_t (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int)'
	echo 'INSERT INTO replay_t (n) VALUES (1);' >"$dir/replay.sql"
	local r i setting offset ms records
	for ((r = 0; r < ins_rounds; r++)); do
		for ((i = 0; i < 2; i++)); do
			setting=$(nth $r $i off on)
			pause_setting "$setting"
			psql_ -c 'TRUNCATE replay_t' -c 'CHECKPOINT'
			"$PG_BINDIR/pgbench" -h "$dir" -U postgres -n -M prepared -R 1000 -T "$replay_secs" -f "$dir/replay.sql" postgres >/dev/null 2>&1
			"${AS_PG[@]}" "$PG_BINDIR/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
			offset=$(stat -c %s "$dir/server.log")
			"${AS_PG[@]}" "$PG_BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null
			# redo's elapsed time, from the log's millisecond timestamps
			ms=$(tail -c +$((offset + 1)) "$dir/server.log" | awk '
				function ms(d, t) { split(t, a, ":"); return (a[1] * 3600 + a[2] * 60 + a[3]) * 1000 }
				/redo starts at/ { s = ms($1, $2) } /redo done at/ { e = ms($1, $2) }
				END { if (s && e) printf "%.0f", e - s }')
			[ -n "$ms" ] || { echo "no redo times in the server log (round $r, $setting)" >&2; exit 1; }
			records=$(psql_ -Atc "SELECT count(*) FROM replay_t")
			echo "replay $setting $r $ms $records" >>"$res/raw.txt"
		done
	done
	psql_ -c 'ALTER SYSTEM RESET uuidx.wal_log_mark' -c 'SELECT pg_reload_conf()' >/dev/null
}
report_replay() {
	local off on
	off=$(median replay off) on=$(median replay on)
	printf '\n11. Replay: crash recovery of %s s of inserts at 1,000 a second; ms of redo, median of %s rounds\n' "$replay_secs" "$ins_rounds"
	printf '%-22s %10s %10s\n' uuidx.wal_log_mark "redo ms" rows
	printf '%-22s %10.0f %10.0f\n' off "$off" "$(median replay off 5)" on "$on" "$(median replay on 5)"
	echo "$off $on $(calc "$on / ($off > 0 ? $off : 1)")" >"$res/replay.dat"
	printf 'on / off: %.3f\n' "$(calc "$on / ($off > 0 ? $off : 1)")"
}

# The issue's targets, from the medians above.
target() {
	awk -v n="$1" -v x="$2" -v op="$3" -v t="$4" 'BEGIN {
		printf "%-62s %8.3f %s %-5s %s\n", n, x, op, t, ((op == "<=" ? x <= t : x >= t) ? "met" : "missed") }'
}
report_targets() {
	local f c w
	echo; echo "Targets (measured ratio, target, result)"
	[ -f "$res/cost.dat" ] && for f in uuid_generate_v6 uuid_generate_v7 uuid_generate_v8; do
		target "$f() / gen_random_uuid()" "$(awk -v f="$f" '$1 == f { print $4 }' "$res/cost.dat")" '<=' 0.25
		target "$f() / clock_timestamp()" "$(awk -v f="$f" '$1 == f { print $3 }' "$res/cost.dat")" '<=' 1.5
	done
	[ -f "$res/insert.dat" ] && target "insert time, uuid_generate_v7() / bigint identity" \
		"$(awk '$1 == "bigint" { b = $4 } $1 == "uuid_generate_v7" { v = $4 } END { print v / b }' "$res/insert.dat")" '<=' 1.15
	[ -f "$res/insert.dat" ] && target "pk index of uuid_generate_v7() / CREATE INDEX" \
		"$(awk '$1 == "uuid_generate_v7" { print $6 / $7 }' "$res/insert.dat")" '<=' 1.05
	[ -f "$res/sessions.dat" ] && for c in "${clients[@]}"; do
		target "statements/s uuid_generate_v7() / clock_timestamp(), $c clients" "$(awk -v c="$c" '$1 == c { print $4 }' "$res/sessions.dat")" '>=' 0.95
	done
	if [ -f "$res/keyorder.dat" ]; then
		# issue 27: within 1.5x of hand-written bounds (undeclared and declared),
		# within 2x on a column that also holds v6 keys; the declared last-hour
		# count within 1.2x
		awk '{ print $1, $2, $3, $4, $7 }' "$res/keyorder.dat" | while read -r t w q st ratio; do
			case $t in ko) lim=1.5 ;; kod) lim=$([ "$w-$q" = last_hour-count ] && echo 1.2 || echo 1.5) ;; kom) lim=2 ;; esac
			target "$t, $w, $q: $st / hand-written bounds" "$ratio" '<=' "$lim"
		done
	fi
	[ -f "$res/rules.dat" ] && while read -r c m b ratio pf pb pratio; do
		case $c in
		keyset) target "keyset pages: id <@ r / hand-written bounds" "$ratio" '<=' 1.5; continue ;;
		p[0-9]*d_*) lim=1.25 ;;
		outer_join*) lim=1.2 ;;
		partial*) lim=1.5 ;;
		*) lim=1.3 ;;
		esac
		target "$c: statements / hand-written bounds" "$ratio" '<=' "$lim"
		case $c in p[0-9]*) target "$c: planning / hand-written bounds" "$pratio" '<=' 1.5 ;; esac
	done <"$res/rules.dat"
	[ -f "$res/rules_estimates.dat" ] && while read -r c e a; do
		target "estimate $c: planned / actual rows" "$(calc "$e / ($a > 0 ? $a : 1)")" '<=' 2
		target "estimate $c: actual / planned rows" "$(calc "$a / ($e > 0 ? $e : 1)")" '<=' 2
	done <"$res/rules_estimates.dat"
	[ -f "$res/replay.dat" ] && target "replay, wal_log_mark on / off" "$(awk '{ print $3 }' "$res/replay.dat")" '<=' 1.2
	[ -f "$res/pause.dat" ] && while read -r ms setting v b ratio; do
		if [ "$ms" = first ]; then
			target "SELECT after a 1.5 s pause, uuid_generate_v7() / gen_random_uuid(), wal_log_mark $setting" "$ratio" '<=' 2
		else
			target "INSERT every $ms ms, v7 / bigint, wal_log_mark $setting" "$ratio" '<=' 1.1
		fi
	done <"$res/pause.dat"
	[ -f "$res/fn12.dat" ] && for f in mask unmask; do
		target "uuid_v7_$f() / uuid_generate_v7(), per value" \
			"$(awk -v f="$f" '$1 == "generate" { g = $2 } $1 == f { m = $2 } END { print m / g }' "$res/fn12.dat")" '<=' 1
	done
	if [ -f "$res/ranges.dat" ]; then
		target "1-hour window, sum: id <@ tstzrange / hand-written bounds" "$(awk '$1 == "1_hour" && $2 == "sum" { print $6 }' "$res/ranges.dat")" '<=' 1.1
		target "1-hour window, count: id <@ tstzrange / hand-written bounds" "$(awk '$1 == "1_hour" && $2 == "count" { print $6 }' "$res/ranges.dat")" '<=' 1.1
		target "1-hour window, sum: uuid_timestamp() filter / id <@ tstzrange" "$(awk '$1 == "1_hour" && $2 == "sum" { print $7 }' "$res/ranges.dat")" '>=' 100
		for w in '1 hour' '1 day'; do
			# estimated / actual rows of the operator's plan, within a factor of 2
			awk -F'|' -v w="$w" '$1 == w && $2 == "operator" { print $4 / $5, $5 / $4 }' "$res/range_plans.txt" | {
				read -r over under
				target "$w window: estimated / actual rows" "$over" '<=' 2
				target "$w window: actual / estimated rows" "$under" '<=' 2
			}
		done
	fi
	return 0
}

machine() {
	echo "Server:  $(psql_ -Atc 'SELECT version()')"
	echo "State:   $(psql_ -Atc "SELECT string_agg(DISTINCT scope || ' / ' || storage, ', ') FROM uuidx_generator_state()")"
	echo "Machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)," \
		"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 2^20 }' /proc/meminfo) RAM, $(uname -sr)," \
		"load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
	echo "Run:     $(date -u '+%Y-%m-%d %H:%M UTC'), uuidx $(git -C "$UUIDX_ROOT" describe --always --dirty 2>/dev/null || echo '?')"
	echo "Command: $command"
}

run() { [[ $sections == *" $1 "* ]]; }
machine >"$res/machine.txt"; show cat "$res/machine.txt"
if run 1; then measure_cost; show report_cost; fi
if run 2; then measure_inserts; show report_inserts; fi
if run 3; then measure_sessions; show report_sessions; fi
if run 4 && [ -n "$ossp" ]; then
	measure_conversion; show report_conversion
elif run 4; then
	show echo "4. skipped: no uuid-ossp for the v1 values"
fi
if run 5; then measure_ranges; show report_ranges; fi
if run 6; then measure_keyorder; show report_keyorder; fi
if run 7; then measure_mark_wal; show report_mark_wal; fi
if run 8; then measure_12; show report_12; fi
if run 9; then measure_rules; show report_rules; fi
if run 10; then measure_pauses; show report_pauses; fi
if run 11; then measure_replay; show report_replay; fi
show report_targets

if [ -n "$png" ] && [ -f "$res/cost.dat" ] && [ -f "$res/insert.dat" ]; then
	mkdir -p "$(dirname "$png")"
	gnuplot -e "res='$res'; out='$png'; rows='$rows'; ins_rows='$ins_rows'; sub='PostgreSQL $PG_MAJOR, $(sed -n 's/^Machine: //p' "$res/machine.txt" | cut -d, -f1-2 | tr -d "'")'" "$here/plot.gp"
	say "figure: $png"
fi
if [ -n "${UUIDX_BENCH_OUT:-}" ]; then
	mkdir -p "$UUIDX_BENCH_OUT" && cp "$res"/* "$UUIDX_BENCH_OUT"/
	say "report and data files: $UUIDX_BENCH_OUT"
fi
