# make bench's section 8, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

# 8. Conversions (releases 1.2 and 1.7), per value over a table of ROWS
# stored v7 values (beyond reading it), against uuid_generate_v7() called
# once per row of the same table and against core's text of a uuid
# (u::text, uuid_out) and its bytes (uuid_send(u)); and max(id) of
# KEYORDER_ROWS keys from the primary key against ORDER BY id DESC LIMIT 1.
fns12=(read generate core_text core_send mask unmask to_ulid from_ulid to_typeid from_typeid to_base32hex from_base32hex to_bytea)
fn12_sql() {
	case $1 in
	read) echo "SELECT count(u) FROM f12" ;;
	generate) echo "SELECT count(uuid_generate_v7()) FROM f12" ;;
	mask) echo "SELECT count(uuid_v7_mask(u, '\x00112233445566778899aabbccddeeff')) FROM f12" ;;
	unmask) echo "SELECT count(uuid_v7_unmask(m, '\x00112233445566778899aabbccddeeff')) FROM f12" ;;
	to_ulid) echo "SELECT count(uuid_to_ulid(u)) FROM f12" ;;
	from_ulid) echo "SELECT count(ulid_to_uuid(t)) FROM f12" ;;
	core_text) echo "SELECT count(u::text) FROM f12" ;;
	core_send) echo "SELECT count(uuid_send(u)) FROM f12" ;;
	to_typeid) echo "SELECT count(uuid_to_typeid('user', u)) FROM f12" ;;
	from_typeid) echo "SELECT count(typeid_to_uuid(ty, 'user')) FROM f12" ;;
	to_base32hex) echo "SELECT count(uuid_to_base32hex(u)) FROM f12" ;;
	from_base32hex) echo "SELECT count(base32hex_to_uuid(h)) FROM f12" ;;
	to_bytea) echo "SELECT count(u::bytea) FROM f12" ;;
	esac
}
measure_12() {
	say "8. conversions: $rows stored values, $rounds rounds"
	psql_ -c "CREATE TABLE f12 AS SELECT u, uuid_v7_mask(u, '\x00112233445566778899aabbccddeeff') AS m, uuid_to_ulid(u) AS t,
		           uuid_to_typeid('user', u) AS ty, uuid_to_base32hex(u) AS h
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
	local base gen text f m
	base=$(median fn12 read) gen=$(median fn12 generate)
	text=$(median fn12 core_text)
	printf '\n8. Conversions: ns per value beyond reading %s stored values; median of %s rounds\n' "$rows" "$rounds"
	printf '%-40s %10s %20s %12s\n' function "ns/value" "x uuid_generate_v7()" "x u::text"
	for f in generate core_text core_send mask unmask to_ulid from_ulid to_typeid from_typeid to_base32hex from_base32hex to_bytea; do
		m=$(calc "($(median fn12 $f) - $base) * 1e6 / $rows")
		echo "$f $m" >>"$res/fn12.dat"
		printf '%-40s %10.1f %20.2f %12.2f\n' "$(fn12_sql $f | sed 's/SELECT count(\(.*\)) FROM f12/\1/')" "$m" \
			"$(calc "$m / (($gen - $base) * 1e6 / $rows)")" "$(calc "$m / (($text - $base) * 1e6 / $rows)")"
	done
	if [ -n "$(median maxid max_id)" ]; then
		printf 'max(id) of %s keys: %.3f ms; ORDER BY id DESC LIMIT 1: %.3f ms\n' "$keyorder_rows" "$(median maxid max_id)" "$(median maxid order_limit)"
	fi
}
