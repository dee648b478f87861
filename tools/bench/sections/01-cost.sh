# make bench's section 1, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

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
