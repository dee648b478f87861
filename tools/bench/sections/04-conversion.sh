# make bench's section 4, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

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
