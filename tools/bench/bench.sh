#!/usr/bin/env bash
# make bench: uuidx against core PostgreSQL on one throwaway server (uuidx
# preloaded, so the generators' state is shared).  Every measurement is
# repeated, with the compared variants in a rotated order each round, and
# reported as medians and ratios measured side by side in this one run.
# A benchmark, not a test: a missed target is reported, never an error.
# Each section's measure_*() and report_*() is in sections/NN-name.sh.
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
#   8. conversions     uuid_v7_mask/unmask, ULID, TypeID, base32hex and bytea both ways per value, against core's u::text;
#                      max(id) from the index
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

# Each section's measure_*() and report_*(), one file per section.
for section_file in "$here"/sections/[0-9]*.sh; do
	# shellcheck source=/dev/null
	source "$section_file"
done

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
