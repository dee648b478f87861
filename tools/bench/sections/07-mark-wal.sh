# make bench's section 7, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

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
