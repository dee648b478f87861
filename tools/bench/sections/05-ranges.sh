# make bench's section 5, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

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
