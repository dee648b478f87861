# make bench's section 2, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

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
