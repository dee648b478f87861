# make bench's section 10, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

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
