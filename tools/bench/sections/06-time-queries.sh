# make bench's section 6, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

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
