# make bench's section 3, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

# 3. Many sessions: throughput of one-function statements, so that any
# contention on the shared generator state shows against clock_timestamp().
# Each pgbench transaction sends PIPE statements in one pipeline: the server
# runs them back to back instead of waiting for a client round trip after
# each, which would otherwise be what one client measures.
pipe=${UUIDX_BENCH_PIPELINE:-100}
measure_sessions() {
	say "3. many sessions: pgbench -T $pgb_secs, clients ${clients[*]}, $pipe statements per pipeline, $pgb_rounds rounds"
	local f i
	for f in uuid_generate_v7 clock_timestamp; do
		{ echo '\startpipeline'; for ((i = 0; i < pipe; i++)); do echo "SELECT $f();"; done; echo '\endpipeline'; } >"$dir/$f.sql"
	done
	local r c s tps
	for ((r = 0; r < pgb_rounds; r++)); do
		for c in "${clients[@]}"; do
			for i in 0 1; do
				s=$(nth $((r + c)) $i uuid_generate_v7 clock_timestamp)
				tps=$("$PG_BINDIR/pgbench" -h "$dir" -U postgres -n -M prepared -T "$pgb_secs" -c "$c" -j $((c < 2 ? c : 2)) \
					-f "$dir/$s.sql" postgres 2>&1 | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p')
				[ -n "$tps" ] || { echo "pgbench gave no tps ($s, $c clients)" >&2; exit 1; }
				echo "sessions $s/$c $r $(awk "BEGIN { printf \"%.0f\", $tps * $pipe }")" >>"$res/raw.txt"
			done
		done
	done
}
report_sessions() {
	local c v k
	printf '\n3. Many sessions: pgbench -n -M prepared -T %s, %s statements per pipeline; median statements/s of %s rounds\n' "$pgb_secs" "$pipe" "$pgb_rounds"
	printf '%-8s %20s %20s %10s\n' clients "uuid_generate_v7()" "clock_timestamp()" "ratio"
	for c in "${clients[@]}"; do
		v=$(median sessions "uuid_generate_v7/$c") k=$(median sessions "clock_timestamp/$c")
		echo "$c $v $k $(calc "$v / $k")" >>"$res/sessions.dat"
		printf '%-8s %20.0f %20.0f %10.3f\n' "$c" "$v" "$k" "$(calc "$v / $k")"
	done
}
