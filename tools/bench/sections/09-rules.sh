# make bench's section 9, sourced by tools/bench/bench.sh (its helpers and
# settings are in scope): measure_*() writes raw.txt lines, report_*() prints.

# 9. Time queries that keep PostgreSQL's rules (release 1.3.1), each
# against hand-written bounds on the same table in the same pgbench run:
# - partitions: RULES_ROWS v7 keys over 7 and over 367 daily partitions
#   (rp7, rp367: the key declares nothing; rp7d, rp367d: declared v7 of the
#   RFC variant), the last hour's count: planning (EXPLAIN, median of 15)
#   and statements.  id <@ r on a column that declares nothing reads v6
#   keys too: its bounds are two ranges, ORed;
# - an outer join whose WHERE rejects the nullable side's NULL keys
#   (rules_o LEFT JOIN rules_e: reduced to an inner join);
# - a sparse key (one row in 500) with a partial index WHERE ref IS NOT NULL;
# - keyset pages: every page of 10 of a day 40 days back, newest first,
#   id <@ r AND id < $last, in one PL/pgSQL loop (a generic plan);
# - estimates: planned / actual rows, for a window computed from now() on
#   both sides, a window open towards the future on a column with one key
#   ten years ahead, a column moving from v4 to v7 keys, and rows inserted
#   since ANALYZE.
rules_setup() {
	local t n d decl
	for t in rp7 rp367 rp7d rp367d; do
		n=${t#rp}; n=${n%d}
		decl=
		[ "${t: -1}" = d ] && decl="CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2)"
		psql_ <<SQL
CREATE TABLE $t (id uuid NOT NULL $decl, payload int, PRIMARY KEY (id)) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', '${t}_' || d, '$t',
              uuid_v7_lower_bound(date_trunc('day', now()) - ($n - 2 - d) * interval '1 day'),
              uuid_v7_lower_bound(date_trunc('day', now()) - ($n - 3 - d) * interval '1 day'))
FROM generate_series(0, $n - 1) d \gexec
INSERT INTO $t SELECT uuid_timestamptz_to_v7(t), g
FROM (SELECT g, date_trunc('day', now()) - ($n - 2) * interval '1 day'
                + g * ((now() - date_trunc('day', now()) + ($n - 2) * interval '1 day') / $rules_rows) AS t
      FROM generate_series(1, $rules_rows) g) s;
VACUUM ANALYZE $t;
SQL
	done
	psql_ <<SQL
CREATE TABLE rules_o (n int PRIMARY KEY, name text);
INSERT INTO rules_o SELECT g, 'n' || g FROM generate_series(1, 10000) g;
CREATE TABLE rules_e (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), n int, ref uuid);
INSERT INTO rules_e SELECT uuid_timestamptz_to_v7(t), g % 10000 + 1, CASE WHEN g % 500 = 0 THEN uuid_timestamptz_to_v7(t) END
FROM (SELECT g, now() - interval '60 days' + g * (interval '60 days' / $rules_rows) AS t FROM generate_series(1, $rules_rows) g) s;
CREATE INDEX ON rules_e (n);
CREATE INDEX rules_e_ref ON rules_e (ref) WHERE ref IS NOT NULL;
CREATE TABLE rules_k (id uuid PRIMARY KEY, payload int);
INSERT INTO rules_k SELECT id, n FROM rules_e;
-- estimates
CREATE TABLE rules_ahead (id uuid PRIMARY KEY);
INSERT INTO rules_ahead SELECT id FROM rules_e UNION ALL SELECT uuid_timestamptz_to_v7(now() + interval '10 years');
CREATE TABLE rules_moved (id uuid PRIMARY KEY CHECK (uuid_version(id) IN (4, 7)));
INSERT INTO rules_moved SELECT id FROM rules_e WHERE n % 2 = 0 UNION ALL SELECT gen_random_uuid() FROM generate_series(1, $rules_rows / 2);
CREATE TABLE rules_newer (id uuid PRIMARY KEY);
INSERT INTO rules_newer SELECT id FROM rules_e;
-- uuidx's v8 keys, which begin with the millisecond as v7 keys do: alone,
-- and beside v7 keys of the same times
CREATE TABLE rules_v8 (id uuid PRIMARY KEY);
INSERT INTO rules_v8 SELECT uuid_generate_v8() FROM generate_series(1, $rules_rows / 10);
CREATE TABLE rules_78 (id uuid PRIMARY KEY);
INSERT INTO rules_78 SELECT id FROM rules_e
  UNION ALL SELECT uuid_v8_from_parts((extract(epoch FROM uuid_timestamp(id)) * 1000)::bigint, n % 4096, n) FROM rules_e;
-- a partial index on the form, on a key declared v7 (rules_pd) and on one
-- that declares nothing (rules_pu: uuid_timestamp left as written)
CREATE TABLE rules_pd (id uuid NOT NULL CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), n int);
INSERT INTO rules_pd SELECT id, n FROM rules_e;
CREATE INDEX ON rules_pd (id) WHERE uuid_timestamp(id) >= '$rules_since';
CREATE TABLE rules_pu (id uuid NOT NULL, n int);
INSERT INTO rules_pu SELECT id, n FROM rules_e;
CREATE INDEX ON rules_pu (id) WHERE uuid_timestamp(id) >= '$rules_since';
VACUUM ANALYZE rules_o, rules_e, rules_k, rules_ahead, rules_moved, rules_newer, rules_v8, rules_78, rules_pd, rules_pu;
INSERT INTO rules_newer SELECT uuid_generate_v7() FROM generate_series(1, $rules_rows / 50);
CREATE FUNCTION rules_pages(operator boolean) RETURNS int LANGUAGE plpgsql AS \$\$
DECLARE
  last uuid := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
  a timestamptz := date_trunc('day', now() - interval '40 days');
  pages int := 0;
  page uuid;
BEGIN
  LOOP
    IF operator THEN
      SELECT min(id) INTO page FROM (SELECT id FROM rules_k WHERE id <@ tstzrange(a, a + interval '1 day') AND id < last
                                     ORDER BY id DESC LIMIT 10) s;
    ELSE
      SELECT min(id) INTO page FROM (SELECT id FROM rules_k WHERE id >= uuid_v7_lower_bound(a)
                                       AND id < uuid_v7_lower_bound(a + interval '1 day') AND id < last
                                     ORDER BY id DESC LIMIT 10) s;
    END IF;
    EXIT WHEN page IS NULL;
    pages := pages + 1;
    last := page;
  END LOOP;
  RETURN pages;
END \$\$;
-- the same pages as a row comparison, (id, payload) < (last key, its payload)
CREATE FUNCTION rules_row_pages(operator boolean) RETURNS int LANGUAGE plpgsql AS \$\$
DECLARE
  last uuid := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
  last_payload int := 0;
  a timestamptz := date_trunc('day', now() - interval '40 days');
  pages int := 0;
  page record;
BEGIN
  LOOP
    IF operator THEN
      SELECT id, payload INTO page FROM (SELECT id, payload FROM rules_k WHERE id <@ tstzrange(a, a + interval '1 day')
                                          AND (id, payload) < (last, last_payload) ORDER BY id DESC, payload DESC LIMIT 10) s
      ORDER BY id, payload LIMIT 1;
    ELSE
      SELECT id, payload INTO page FROM (SELECT id, payload FROM rules_k WHERE id >= uuid_v7_lower_bound(a)
                                          AND id < uuid_v7_lower_bound(a + interval '1 day')
                                          AND (id, payload) < (last, last_payload) ORDER BY id DESC, payload DESC LIMIT 10) s
      ORDER BY id, payload LIMIT 1;
    END IF;
    EXIT WHEN page.id IS NULL;
    pages := pages + 1;
    last := page.id;
    last_payload := page.payload;
  END LOOP;
  RETURN pages;
END \$\$;
SQL
	# partitioned by the form, 367 daily partitions: by uuid_v7_to_timestamptz
	# (rules_tp) and, as uuidx leaves it as written, by uuid_timestamp on a key
	# that declares nothing (rules_tpu)
	for t in rules_tp rules_tpu; do
		local fn=uuid_v7_to_timestamptz
		[ $t = rules_tpu ] && fn=uuid_timestamp
		psql_ <<SQL
CREATE TABLE $t (id uuid NOT NULL, payload int) PARTITION BY RANGE ($fn(id));
SELECT format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', '${t}_' || d, '$t',
              date_trunc('day', now()) - (365 - d) * interval '1 day', date_trunc('day', now()) - (364 - d) * interval '1 day')
FROM generate_series(0, 366) d \gexec
INSERT INTO $t SELECT id, payload FROM rp367;
VACUUM ANALYZE $t;
SQL
	done
}
rules_cases=(p7_op p7_form p7d_op p7d_form p367_op p367_form p367d_op p367d_form outer_join outer_join_op partial partial_op
	tp_day tp_now partial_form order_tie)
# A time a day and a half back, for the partial indexes on the form (a
# constant, as an index predicate is), and a day 40 days back.
rules_since=$(date -u -d '36 hours ago' '+%Y-%m-%d %H:00+00')
rules_asked=$(date -u -d '24 hours ago' '+%Y-%m-%d %H:00+00')
rules_day=$(date -u -d '40 days ago' '+%Y-%m-%d+00')
rules_sql() { # case, bounds (1: the hand-written bounds)
	local t a="now() - interval '1 hour'" b="now()"
	case $1 in
	p[0-9]*) t=r${1%_*}
		if [ "$2" = 1 ] && [[ $t != *d ]] && [ "${1#*_}" = op ]; then
			# undeclared, id <@ r: v7 and v6 keys, two ranges
			echo "SELECT count(*) FROM $t WHERE (id >= uuid_v7_lower_bound($a) AND id < uuid_v7_lower_bound($b)) OR (id >= uuidx_time_bound($a, $b, '[)', 6, false) AND id <= uuidx_time_bound($a, $b, '[)', 6, true))"
		elif [ "$2" = 1 ]; then
			echo "SELECT count(*) FROM $t WHERE id >= uuid_v7_lower_bound($a) AND id < uuid_v7_lower_bound($b)"
		elif [ "${1#*_}" = op ]; then
			echo "SELECT count(*) FROM $t WHERE id <@ tstzrange($a, $b)"
		else
			local fn=uuid_timestamp
			[[ $t == *d ]] || fn=uuid_v7_to_timestamptz
			echo "SELECT count(*) FROM $t WHERE $fn(id) >= $a AND $fn(id) < $b"
		fi ;;
	outer_join*)
		if [ "$2" = 1 ]; then echo "SELECT count(e.id) FROM rules_o o LEFT JOIN rules_e e ON e.n = o.n WHERE e.id >= uuid_v7_lower_bound($a)"
		elif [ "$1" = outer_join ]; then echo "SELECT count(e.id) FROM rules_o o LEFT JOIN rules_e e ON e.n = o.n WHERE uuid_timestamp(e.id) >= $a"
		else echo "SELECT count(e.id) FROM rules_o o LEFT JOIN rules_e e ON e.n = o.n WHERE e.id <@ tstzrange($a, NULL)"; fi ;;
	tp_*) # the bounds: the table partitioned by the form left as written
		local fn=uuid_v7_to_timestamptz
		t=rules_tp
		[ "$2" = 1 ] && t=rules_tpu fn=uuid_timestamp
		[ "$1" = tp_day ] && a="'$rules_day'" b="'$rules_day'::timestamptz + interval '1 day'"
		echo "SELECT count(*) FROM $t WHERE $fn(id) >= $a AND $fn(id) < $b" ;;
	partial_form) # the bounds: the key that declares nothing, left as written
		t=rules_pd; [ "$2" = 1 ] && t=rules_pu
		echo "SELECT id FROM $t WHERE uuid_timestamp(id) >= '$rules_asked' ORDER BY id DESC LIMIT 10" ;;
	order_tie)
		a="now() - interval '1 day'"
		if [ "$2" = 1 ]; then echo "SELECT id FROM rules_e WHERE id >= uuid_v7_lower_bound($a) ORDER BY id DESC LIMIT 10"
		else echo "SELECT id FROM rules_e WHERE uuid_timestamp(id) >= $a ORDER BY uuid_timestamp(id) DESC, id DESC LIMIT 10"; fi ;;
	partial*)
		a="now() - interval '1 day'"
		if [ "$2" = 1 ] && [ "$1" = partial_op ]; then
			echo "SELECT count(*) FROM rules_e WHERE (ref >= uuid_v7_lower_bound($a) AND ref <= uuidx_time_bound($a, NULL, '[)', 7, true)) OR ref >= uuidx_time_bound($a, NULL, '[)', 6, false)"
		elif [ "$2" = 1 ]; then echo "SELECT count(*) FROM rules_e WHERE ref >= uuid_v7_lower_bound($a)"
		elif [ "$1" = partial ]; then echo "SELECT count(*) FROM rules_e WHERE uuid_v7_to_timestamptz(ref) >= $a"
		else echo "SELECT count(*) FROM rules_e WHERE ref <@ tstzrange($a, NULL)"; fi ;;
	esac
}
measure_rules() {
	say "9. PostgreSQL's rules: $rules_rows rows a table, pgbench -T $keyorder_secs, $rounds rounds"
	rules_setup
	local c r ms out
	for c in "${rules_cases[@]}"; do
		for ((r = 0; r < rounds; r++)); do
			out=$(latency_mixed "$keyorder_secs" "$(rules_sql $c 0)" "$(rules_sql $c 1)")
			mapfile -t ms <<<"$out"
			echo "rules-$c form $r ${ms[0]}" >>"$res/raw.txt"
			echo "rules-$c bounds $r ${ms[1]}" >>"$res/raw.txt"
		done
		echo "rules-$c plan-form 0 $(plan_ms "$(rules_sql $c 0)")" >>"$res/raw.txt"
		echo "rules-$c plan-bounds 0 $(plan_ms "$(rules_sql $c 1)")" >>"$res/raw.txt"
		{
			echo "-- $c"
			psql_ -Atc "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF, COSTS OFF) $(rules_sql $c 0)"
			echo
		} >>"$res/explain_rules.txt"
	done
	for ((r = 0; r < rounds; r++)); do
		for c in true false; do
			echo "rules-keyset $([ $c = true ] && echo form || echo bounds) $r $(time_sql "SELECT rules_pages($c)" "SELECT rules_pages($c)")" >>"$res/raw.txt"
			echo "rules-rowkeyset $([ $c = true ] && echo form || echo bounds) $r $(time_sql "SELECT rules_row_pages($c)" "SELECT rules_row_pages($c)")" >>"$res/raw.txt"
		done
	done
	psql_ -Atc "SELECT rules_row_pages(true), rules_row_pages(false)" >>"$res/explain_rules.txt"
	psql_ -At -F' ' >"$res/rules_estimates.dat" <<'SQL'
CREATE FUNCTION pg_temp.rows_estimated(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan json; actual bigint;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
  EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO actual;
  RETURN (plan->0->'Plan'->>'Plan Rows') || ' ' || actual;
END $$;
SELECT c, pg_temp.rows_estimated(q) FROM (VALUES
  ('now_both_sides', $q$SELECT * FROM rules_k WHERE uuid_v7_to_timestamptz(id) >= now() - interval '40 days' AND uuid_v7_to_timestamptz(id) < now() - interval '39 days'$q$),
  ('between_now', $q$SELECT * FROM rules_e WHERE uuid_timestamp(id) BETWEEN now() - interval '40 days' AND now() - interval '39 days'$q$),
  ('one_key_ahead', $q$SELECT * FROM rules_ahead WHERE id <@ tstzrange(now() - interval '1 day', NULL)$q$),
  ('v4_and_v7', $q$SELECT * FROM rules_moved WHERE uuid_timestamp(id) >= now() - interval '1 hour'$q$),
  ('past_analyze', $q$SELECT * FROM rules_newer WHERE id <@ tstzrange(now() - interval '12 hours', now())$q$),
  ('v8_only', $q$SELECT * FROM rules_v8 WHERE id <@ tstzrange(now() - interval '1 hour', now())$q$),
  ('v7_and_v8', $q$SELECT * FROM rules_78 WHERE id <@ tstzrange(now() - interval '1 day', now())$q$)) v(c, q);
SQL
}
report_rules() {
	local c m b
	printf '\n9. Time queries that keep PostgreSQL'"'"'s rules: %s rows a table; ms per statement (pgbench -M simple -T %s, form and bounds drawn at random in one run), median of %s rounds; planning ms (EXPLAIN, median of 15)\n' "$rules_rows" "$keyorder_secs" "$rounds"
	printf '%-16s %9s %9s %7s %8s %8s %7s\n' case "ms" "bounds" ratio "plan" "bounds" ratio
	for c in "${rules_cases[@]}"; do
		m=$(median "rules-$c" form) b=$(median "rules-$c" bounds)
		echo "$c $m $b $(calc "$m / $b") $(median "rules-$c" plan-form) $(median "rules-$c" plan-bounds) $(calc "$(median "rules-$c" plan-form) / $(median "rules-$c" plan-bounds)")" >>"$res/rules.dat"
		printf '%-16s %9.3f %9.3f %7.2f %8.3f %8.3f %7.2f\n' "$c" "$m" "$b" "$(calc "$m / $b")" \
			"$(median "rules-$c" plan-form)" "$(median "rules-$c" plan-bounds)" \
			"$(calc "$(median "rules-$c" plan-form) / $(median "rules-$c" plan-bounds)")"
	done
	m=$(median rules-keyset form) b=$(median rules-keyset bounds)
	echo "keyset $m $b $(calc "$m / $b")" >>"$res/rules.dat"
	printf '%-16s %9.1f %9.1f %7.2f   (every page of a day 40 days back, ms in all)\n' keyset_pages "$m" "$b" "$(calc "$m / $b")"
	m=$(median rules-rowkeyset form) b=$(median rules-rowkeyset bounds)
	echo "rowkeyset $m $b $(calc "$m / $b")" >>"$res/rules.dat"
	printf '%-16s %9.1f %9.1f %7.2f   (the same, (id, payload) < (last key, its payload))\n' row_pages "$m" "$b" "$(calc "$m / $b")"
	printf '\nestimates: %-16s %10s %10s %7s\n' case planned actual ratio
	while read -r c e a; do
		printf '           %-16s %10s %10s %7.2f\n' "$c" "$e" "$a" "$(calc "$e / ($a > 0 ? $a : 1)")"
	done <"$res/rules_estimates.dat"
	echo "(p7, p367: 7 or 367 daily partitions of a key that declares nothing; p7d, p367d: declared v7 of the RFC variant;"
	echo " op: id <@ tstzrange(now() - interval '1 hour', now()), bounds two ranges ORed where the key declares nothing;"
	echo " form: uuid_v7_to_timestamptz(id) (undeclared) or uuid_timestamp(id) (declared) >= now() - 1 hour AND < now();"
	echo " outer_join: count(e.id) FROM o LEFT JOIN e WHERE uuid_timestamp(e.id) >= now() - 1 hour (_op: e.id <@ r);"
	echo " partial: a sparse key with a partial index, uuid_v7_to_timestamptz(ref) >= now() - 1 day (_op: ref <@ r, against two ranges);"
	echo " tp_day, tp_now: 367 daily partitions BY RANGE (uuid_v7_to_timestamptz(id)), a day 40 days back, the last hour;"
	echo "   bounds: the same table BY RANGE (uuid_timestamp(id)) with nothing declared, which uuidx leaves as written;"
	echo " partial_form: newest 10 above a partial index's WHERE uuid_timestamp(id) >= a constant, key declared v7;"
	echo "   bounds: the same on a key that declares nothing (left as written);"
	echo " order_tie: ORDER BY uuid_timestamp(id) DESC, id DESC LIMIT 10 of the last day, declared (bounds: ORDER BY id DESC);"
	echo " plans in explain_rules.txt)"
}
