# make bench's section 11, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

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
