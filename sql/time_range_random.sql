-- id <@ tstzrange, and the forms users write (uuid_v7_to_timestamptz(id)
-- compared with the range's bounds, uuid_timestamp(id) <@ r), against their
-- definitions, on columns holding every kind of UUID, for random ranges,
-- under every plan the planner can be forced into and in parallel query,
-- with every kind of index and declaration: B-tree, BRIN, btree_gist's
-- GiST, a reversed B-tree class, a column declared to hold v7 keys only
-- (with and without the variant), v6 and v7 keys, or v4 and v7 keys (a
-- column moving from v4 to v7), a sparse column with a partial index of
-- its keys, tables partitioned by range of the key (one declaring nothing,
-- one declared v7, one declared to hold no v1 key with a foreign partition
-- that holds them), a table under row-level security, and one whose policy
-- is a time window, read through a leaky function.  Each range is
-- asked as a constant, commuted, as a range the query builds from
-- timestamps, in the forms (uuid_v7_to_timestamptz(id) and
-- uuid_timestamp(id) compared with its bounds, uuid_timestamp(id) <@ r),
-- as the first and last five ids in key order (ORDER BY id LIMIT 5,
-- ascending and descending) of the operator and of the first form, and as
-- the first and last five times of uuid_timestamp(id) in its order, and,
-- on some tables, as the nullable side of an outer join (in WHERE and in
-- ON) and as a keyset page (id < a key of the range, newest first).
-- Prepared statements run their generic plans.
-- The data and ranges are drawn from a seeded random() (v4 keys too), so
-- that every run, on every major, checks the same cases and prints the
-- same: the number of checks, the mismatches (0; each one is also reported
-- with its range and plan) and the scans the counts used under each
-- setting, which depend on the data.  The suites draw 20 random ranges
-- beside five fixed ones (this seed's 20 hold every kind: empty, unbounded
-- below, above and both, the far past and future, each pair of bound
-- flags, widths from microseconds to days); make soak
-- (test/soak/time_range_random.pl) runs this file with other seeds and
-- many more ranges (psql variables random_seed and random_ranges) and
-- reads the mismatches only.

SET TimeZone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/helpers.sql'
\i :include
\if :{?random_seed}
\else
\set random_seed 0.3141592653
\endif
\if :{?random_ranges}
\else
\set random_ranges 20
\endif
SELECT setseed(:random_seed);
-- (plans forced off the scans they want cost enough to be compiled by JIT,
-- which would only slow the test)
SET jit = off;

CREATE TABLE mixed (id uuid);
INSERT INTO mixed
  SELECT CASE k
           WHEN 0 THEN uuid_timestamptz_to_v7(t)
           WHEN 1 THEN v6_at(t, (random() * 9)::int)
           WHEN 2 THEN uuid_v6_to_v1(v6_at(t))
           WHEN 3 THEN overlay(overlay(md5(random()::text) PLACING '4' FROM 13 FOR 1) PLACING '8' FROM 17 FOR 1)::uuid
           WHEN 4 THEN uuid_v8_from_parts((extract(epoch FROM t) * 1000)::bigint, 0, 0)
           WHEN 5 THEN with_variant(uuid_timestamptz_to_v7(t), (array['0', '4', 'c', 'e'])[1 + (random() * 3)::int])
           WHEN 6 THEN with_variant(v6_at(t), 'c')
           ELSE (array['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
                       '00000000-0000-7000-8000-000000000000', 'ffffffff-ffff-7fff-bfff-ffffffffffff',
                       '00000000-0000-6000-8000-000000000000', 'ffffffff-ffff-6fff-bfff-ffffffffffff',
                       NULL])[1 + (random() * 6)::int]::uuid
         END
  FROM (SELECT (random() * 7.3)::int AS k,
               '2026-10-01+00'::timestamptz + random() * interval '60 days' AS t
        FROM generate_series(1, 20000)) s;
CREATE TABLE mixed_brin AS SELECT * FROM mixed ORDER BY id;
CREATE TABLE mixed_gist AS SELECT * FROM mixed;
CREATE TABLE mixed_rev AS SELECT * FROM mixed;
CREATE INDEX ON mixed (id);
CREATE INDEX ON mixed_brin USING brin (id) WITH (pages_per_range = 8);
-- (quietly: time_range_shapes, run before in the schedule, created it)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS btree_gist;
RESET client_min_messages;
CREATE INDEX ON mixed_gist USING gist (id);
CREATE OR REPLACE FUNCTION uuid_cmp_rev(a uuid, b uuid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT uuid_cmp(b, a) $$;
CREATE OPERATOR CLASS uuid_random_rev_ops FOR TYPE uuid USING btree AS
  OPERATOR 1 >, OPERATOR 2 >=, OPERATOR 3 =, OPERATOR 4 <=, OPERATOR 5 <,
  FUNCTION 1 uuid_cmp_rev(uuid, uuid);
CREATE INDEX ON mixed_rev (id uuid_random_rev_ops);
-- Declared to hold v7 keys only: of the RFC variant (every key is a v7),
-- and without the variant (keys of other variants, whose version is NULL,
-- pass the CHECK).
CREATE TABLE mixed_v7 (id uuid CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2));
INSERT INTO mixed_v7 SELECT id FROM mixed WHERE uuid_version(id) = 7 OR id IS NULL;
CREATE TABLE mixed_v7_weak (id uuid CHECK (uuid_version(id) = 7));
INSERT INTO mixed_v7_weak SELECT id FROM mixed WHERE uuid_version(id) = 7 OR uuid_version(id) IS NULL;
CREATE INDEX ON mixed_v7 (id);
CREATE INDEX ON mixed_v7_weak (id);
-- Declared to hold v6 and v7 keys (and, without the variant, keys of
-- other variants).
CREATE TABLE mixed_v67 (id uuid CHECK (uuid_version(id) IN (6, 7)));
INSERT INTO mixed_v67 SELECT id FROM mixed WHERE uuid_version(id) IN (6, 7) OR uuid_version(id) IS NULL;
CREATE INDEX ON mixed_v67 (id);
-- Under row-level security, for a role that sees some rows.
CREATE TABLE mixed_rls (id uuid, owner text);
INSERT INTO mixed_rls SELECT id, CASE WHEN random() < 0.5 THEN 'regress_uuidx_random' ELSE 'someone else' END FROM mixed;
CREATE INDEX ON mixed_rls (id);
ALTER TABLE mixed_rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON mixed_rls USING (owner = current_user);
CREATE ROLE regress_uuidx_random;
GRANT SELECT ON mixed_rls TO regress_uuidx_random;
-- Partitioned by range of the key: October's and November's v7 keys, the
-- v6 keys of the data's span, and a default partition for the rest.
CREATE TABLE mixed_part (id uuid) PARTITION BY RANGE (id);
CREATE TABLE mixed_part_v7_10 PARTITION OF mixed_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-10-01+00')) TO (uuid_v7_lower_bound('2026-11-01+00'));
CREATE TABLE mixed_part_v7_11 PARTITION OF mixed_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-11-01+00')) TO (uuid_v7_lower_bound('2026-12-01+00'));
CREATE TABLE mixed_part_v6 PARTITION OF mixed_part
  FOR VALUES FROM (v6_at('2026-10-01+00')) TO (v6_at('2026-12-01+00'));
CREATE TABLE mixed_part_default PARTITION OF mixed_part DEFAULT;
INSERT INTO mixed_part SELECT id FROM mixed;
CREATE INDEX ON mixed_part (id);
-- The same, declared to hold v7 keys of the RFC variant.
CREATE TABLE mixed_pv7 (id uuid CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2)) PARTITION BY RANGE (id);
CREATE TABLE mixed_pv7_10 PARTITION OF mixed_pv7
  FOR VALUES FROM (uuid_v7_lower_bound('2026-10-01+00')) TO (uuid_v7_lower_bound('2026-11-01+00'));
CREATE TABLE mixed_pv7_11 PARTITION OF mixed_pv7
  FOR VALUES FROM (uuid_v7_lower_bound('2026-11-01+00')) TO (uuid_v7_lower_bound('2026-12-01+00'));
CREATE TABLE mixed_pv7_default PARTITION OF mixed_pv7 DEFAULT;
INSERT INTO mixed_pv7 SELECT id FROM mixed_v7;
CREATE INDEX ON mixed_pv7 (id);
-- Declared to hold no v1 key, with a foreign partition (file_fdw, of a
-- file written here) that holds every kind of key, v1 keys too: a CHECK
-- is not enforced on a foreign table.
CREATE TABLE mixed_fp (id uuid CHECK (uuid_version(id) <> 1)) PARTITION BY RANGE (id);
CREATE TABLE mixed_fp_local PARTITION OF mixed_fp FOR VALUES FROM (MINVALUE) TO ('80000000-0000-0000-0000-000000000000');
INSERT INTO mixed_fp SELECT id FROM mixed WHERE id < '80000000-0000-0000-0000-000000000000' AND uuid_version(id) IS DISTINCT FROM 1;
CREATE INDEX ON mixed_fp_local (id);
DO $$
BEGIN
  EXECUTE format($c$COPY (SELECT id FROM mixed WHERE id >= '80000000-0000-0000-0000-000000000000') TO %L$c$,
                 current_setting('data_directory') || '/uuidx_random_foreign.txt');
END $$;
CREATE EXTENSION file_fdw;
CREATE SERVER random_files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE mixed_fp_foreign PARTITION OF mixed_fp
  FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO (MAXVALUE)
  SERVER random_files OPTIONS (filename 'uuidx_random_foreign.txt');
-- Declared to hold v4 and v7 keys (and keys of other variants).
CREATE TABLE mixed_v47 (id uuid CHECK (uuid_version(id) IN (4, 7)));
INSERT INTO mixed_v47 SELECT id FROM mixed WHERE uuid_version(id) IN (4, 7) OR uuid_version(id) IS NULL;
CREATE INDEX ON mixed_v47 (id);
-- A sparse column: two rows in three NULL, a partial index of the others.
CREATE TABLE mixed_sparse (id uuid, n int);
INSERT INTO mixed_sparse SELECT id, 0 FROM mixed UNION ALL SELECT NULL, g FROM generate_series(1, 40000) g;
CREATE INDEX ON mixed_sparse (id) WHERE id IS NOT NULL;
-- Under a policy that is a time window, read through a view whose
-- condition, leak(), counts the rows the policy hides that it is shown.
CREATE TABLE mixed_rls_window (id uuid);
INSERT INTO mixed_rls_window SELECT id FROM mixed;
CREATE INDEX ON mixed_rls_window (id);
ALTER TABLE mixed_rls_window ENABLE ROW LEVEL SECURITY;
CREATE POLICY window_only ON mixed_rls_window USING (id <@ '[2026-10-15 00:00+00, 2026-11-15 00:00+00)'::tstzrange);
CREATE FUNCTION leak(id uuid) RETURNS boolean
LANGUAGE plpgsql COST 0.0001 AS $$
BEGIN
  IF id IS NULL OR NOT id <@ '[2026-10-15 00:00+00, 2026-11-15 00:00+00)'::tstzrange THEN
    PERFORM set_config('regress.leaked', (current_setting('regress.leaked')::int + 1)::text, false);
  END IF;
  RETURN true;
END $$;
CREATE VIEW mixed_rls_leaky WITH (security_invoker = true) AS SELECT id FROM mixed_rls_window WHERE leak(id);
GRANT SELECT ON mixed_rls_window, mixed_rls_leaky TO regress_uuidx_random;
SELECT set_config('regress.leaked', '0', false) AS leaked;
VACUUM ANALYZE mixed, mixed_brin, mixed_gist, mixed_rev, mixed_v7, mixed_v7_weak, mixed_v67, mixed_rls, mixed_part,
  mixed_pv7, mixed_fp_local, mixed_v47, mixed_sparse, mixed_rls_window;

-- Random ranges: bounds on random microseconds, milliseconds or seconds of
-- the data's span, random inclusivity, now and then open, empty or
-- reaching beyond v6's and v7's spans.
CREATE TABLE random_ranges AS
  SELECT g AS n,
         CASE WHEN random() < 0.05 THEN 'empty'::tstzrange
              ELSE tstzrange(CASE WHEN random() < 0.1 THEN NULL
                                  WHEN random() < 0.05 THEN '1500-01-01+00'::timestamptz
                                  ELSE a END,
                             CASE WHEN random() < 0.1 THEN NULL
                                  WHEN random() < 0.05 THEN '12000-01-01+00'::timestamptz
                                  ELSE a + random() * (array[interval '1 ms', '1 second', '1 hour', '3 days'])[1 + (random() * 3)::int] END,
                             (array['[)', '[]', '()', '(]'])[1 + (random() * 3)::int]) END AS r
  FROM (SELECT g, date_trunc((array['microseconds', 'milliseconds', 'second'])[1 + (random() * 2)::int],
                             '2026-10-01+00'::timestamptz + random() * interval '60 days') AS a
        FROM generate_series(1, :random_ranges) g) s;
-- and five fixed ones, so that each setting meets every plan it allows:
-- everything, one arm (v7 only: past v6's end; v6 only: before 1970), a
-- narrow one with both arms, and a wide one (half the rows, where the
-- planner's own index paths compete with the custom scan's).
INSERT INTO random_ranges VALUES
  (1001, '(,)'),
  (1002, '[5300-01-01+00, 5300-01-02+00)'),
  (1003, '[1960-01-01+00, 1960-01-02+00)'),
  (1004, '[2026-10-15 00:00+00, 2026-10-15 00:10+00)'),
  (1005, '[2026-10-05 00:00+00, 2026-11-05 00:00+00)');

-- The first node of a plan that scans a table.
CREATE FUNCTION scan_of(plan json) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  child json;
  found text;
BEGIN
  IF plan->>'Node Type' LIKE '%Scan' THEN
    -- Index Scan and Index Only Scan count as one: which of the two is a
    -- matter of visibility, not of the operator
    RETURN CASE WHEN (plan->>'Parallel Aware')::boolean THEN 'Parallel ' ELSE '' END ||
           replace(plan->>'Node Type', 'Index Only Scan', 'Index Scan');
  END IF;
  FOR child IN SELECT * FROM json_array_elements(plan->'Plans') LOOP
    found := scan_of(child);
    IF found IS NOT NULL THEN
      RETURN found;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

-- A form's condition for a range: fn(id) (the first form's
-- uuid_v7_to_timestamptz unless told) compared with each finite bound
-- (with -infinity where there is none); NULL for an empty range.
CREATE FUNCTION form_condition(r tstzrange, fn text DEFAULT 'uuid_v7_to_timestamptz') RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN isempty(r) THEN NULL
              ELSE concat_ws(' AND ',
                             CASE WHEN lower_inf(r) THEN format($c$%s(id) >= '-infinity'$c$, fn)
                                  ELSE format('%s(id) %s %L::timestamptz',
                                              fn, CASE WHEN lower_inc(r) THEN '>=' ELSE '>' END, lower(r)) END,
                             CASE WHEN NOT upper_inf(r) THEN format('%L::timestamptz %s %s(id)',
                                                                    upper(r), CASE WHEN upper_inc(r) THEN '>=' ELSE '>' END, fn) END) END
$$;

-- Every query against the definition, for each range, under each setting.
-- The definitions' answers come first, for all ranges at once: rows of v6
-- and v7 keys in the range (the operator's), of v7 keys (the first form's)
-- and of every key uuid_timestamp reads in it (the second form's), joined
-- on uuid_timestamp's values from a subquery kept apart (OFFSET 0), so
-- that no rewrite of the forms reads them.
CREATE FUNCTION check_plans(tbl text) RETURNS TABLE (off text, checks int, mismatches int, shapes text)
LANGUAGE plpgsql AS $$
DECLARE
  settings text[] := array['default', 'enable_bitmapscan', 'enable_indexscan', 'enable_seqscan', 'parallel'];
  counts int[] := array[0, 0, 0, 0, 0];
  misses int[] := array[0, 0, 0, 0, 0];
  seen text[] := array['', '', '', '', ''];
  rr record;
  q text;
  k int;
  expected bigint;
  got bigint;
  got_text text;
  got_vals text[];
  keyset_key uuid;
  keyset_expected text;
  expected_vals text[];
  dir text;
  plan json;
  shape text;
BEGIN
  EXECUTE format($q$
    CREATE TEMP TABLE truth ON COMMIT DROP AS
    SELECT rr.n, rr.r,
           count(m.id) FILTER (WHERE uuid_version(m.id) IN (6, 7)) AS rows,
           count(m.id) FILTER (WHERE uuid_version(m.id) = 7) AS rows7,
           count(m.id) AS rows_read,
           (array_agg(m.id ORDER BY m.id) FILTER (WHERE uuid_version(m.id) IN (6, 7)))[1:5] AS first5,
           (array_agg(m.id ORDER BY m.id DESC) FILTER (WHERE uuid_version(m.id) IN (6, 7)))[1:5] AS last5,
           (array_agg(m.id ORDER BY m.id) FILTER (WHERE uuid_version(m.id) = 7))[1:5] AS first5_7,
           (array_agg(m.id ORDER BY m.id DESC) FILTER (WHERE uuid_version(m.id) = 7))[1:5] AS last5_7,
           (array_agg(m.t ORDER BY m.t) FILTER (WHERE m.id IS NOT NULL))[1:5] AS first5_t,
           (array_agg(m.t ORDER BY m.t DESC) FILTER (WHERE m.id IS NOT NULL))[1:5] AS last5_t
    FROM random_ranges rr
    LEFT JOIN (SELECT id, uuid_timestamp(id) AS t FROM %I OFFSET 0) m ON rr.r @> m.t
    GROUP BY rr.n, rr.r$q$, tbl);
  FOR rr IN SELECT * FROM truth ORDER BY n LOOP
    -- a keyset page's definition: the two greatest keys of the range below
    -- its third greatest (or, with fewer, below every key)
    keyset_key := coalesce(rr.last5[3], 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid);
    IF tbl IN ('mixed', 'mixed_part', 'mixed_sparse', 'mixed_v47') THEN
      EXECUTE format('SELECT array_agg(id)::text FROM (SELECT id FROM (SELECT id, uuid_timestamp(id) AS t FROM %I OFFSET 0) m
                      WHERE uuid_version(id) IN (6, 7) AND %L::tstzrange @> t AND id < %L ORDER BY id DESC LIMIT 2) s',
                     tbl, rr.r, keyset_key) INTO keyset_expected;
    END IF;
    FOR i IN 1 .. 5 LOOP
      -- parallel query on the tables of a B-tree only (as costly as the rest)
      CONTINUE WHEN settings[i] = 'parallel' AND tbl NOT IN ('mixed', 'mixed_part', 'mixed_v7_weak');
      SET LOCAL enable_seqscan = on;
      SET LOCAL enable_indexscan = on;
      SET LOCAL enable_bitmapscan = on;
      SET LOCAL parallel_setup_cost = 1000;
      SET LOCAL parallel_tuple_cost = 0.1;
      SET LOCAL min_parallel_table_scan_size = '8MB';
      SET LOCAL min_parallel_index_scan_size = '512kB';
      IF settings[i] = 'parallel' THEN
        SET LOCAL parallel_setup_cost = 0;
        SET LOCAL parallel_tuple_cost = 0;
        SET LOCAL min_parallel_table_scan_size = 0;
        SET LOCAL min_parallel_index_scan_size = 0;
      ELSIF i > 1 THEN
        EXECUTE format('SET LOCAL %s = off', settings[i]);
      END IF;
      -- the range as a constant, commuted, built by the query from
      -- timestamps the planner cannot fold (its parts then go to the plan),
      -- and the two forms
      k := 0;
      FOREACH q IN ARRAY array[format('SELECT id FROM %I WHERE id <@ %L::tstzrange', tbl, rr.r),
                               format('SELECT id FROM %I WHERE %L::tstzrange @> id', tbl, rr.r),
                               format('SELECT id FROM %I WHERE id <@ tstzrange(%L::timestamptz + (now() - now()), %L::timestamptz + (now() - now()), %L)',
                                      tbl,
                                      CASE WHEN isempty(rr.r) THEN '2026-10-10+00' ELSE lower(rr.r)::text END,
                                      CASE WHEN isempty(rr.r) THEN '2026-10-10+00' ELSE upper(rr.r)::text END,
                                      CASE WHEN isempty(rr.r) THEN '[)'
                                           ELSE (CASE WHEN lower_inc(rr.r) THEN '[' ELSE '(' END) ||
                                                (CASE WHEN upper_inc(rr.r) THEN ']' ELSE ')' END) END),
                               format('SELECT id FROM %I WHERE %s', tbl, coalesce(form_condition(rr.r), 'false')),
                               -- (built by the query, of parts the planner cannot fold: PostgreSQL
                               -- 17 and later fold x <@ '(,)' to true, whether x is NULL or not)
                               format('SELECT id FROM %I WHERE uuid_timestamp(id) <@ tstzrange(%s, %s, %L)',
                                      tbl,
                                      CASE WHEN isempty(rr.r) THEN $t$'2026-10-10+00'::timestamptz$t$
                                           WHEN lower_inf(rr.r) THEN 'nullif(now(), now())'
                                           ELSE format('%L::timestamptz + (now() - now())', lower(rr.r)) END,
                                      CASE WHEN isempty(rr.r) THEN $t$'2026-10-10+00'::timestamptz$t$
                                           WHEN upper_inf(rr.r) THEN 'nullif(now(), now())'
                                           ELSE format('%L::timestamptz + (now() - now())', upper(rr.r)) END,
                                      CASE WHEN isempty(rr.r) THEN '[)'
                                           ELSE (CASE WHEN lower_inc(rr.r) THEN '[' ELSE '(' END) ||
                                                (CASE WHEN upper_inc(rr.r) THEN ']' ELSE ')' END) END),
                               format('SELECT id FROM %I WHERE %s', tbl, coalesce(form_condition(rr.r, 'uuid_timestamp'), 'false'))] LOOP
        k := k + 1;
        -- (uuid_timestamp's comparisons in parallel only where the column's
        -- declaration lets them be rewritten: elsewhere they are a parallel
        -- sequential scan, which costs a worker's start and checks nothing
        -- of uuidx's)
        CONTINUE WHEN k = 6 AND settings[i] = 'parallel' AND tbl IN ('mixed', 'mixed_part');
        expected := CASE k WHEN 4 THEN rr.rows7 WHEN 5 THEN rr.rows_read WHEN 6 THEN rr.rows_read ELSE rr.rows END;
        EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO got;
        counts[i] := counts[i] + 1;
        IF rr.n > 1000 THEN
          EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
          shape := scan_of(plan->0->'Plan');
          IF position(shape IN seen[i]) = 0 THEN
            seen[i] := seen[i] || shape || ';';
          END IF;
        END IF;
        IF got IS DISTINCT FROM expected THEN
          misses[i] := misses[i] + 1;
          EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
          RAISE NOTICE 'mismatch on % with %: % rows, definition % rows; query %; plan %', tbl, settings[i], got, expected, q, plan;
        END IF;
      END LOOP;
      -- the first and last five in key order, of the operator and the first
      -- form; and the first and last five times in uuid_timestamp(id)'s
      -- order (times, not ids: keys of one time may come in any order)
      -- where the column's declaration lets the planner walk the key's
      -- index for it, and on mixed, where it must not
      FOREACH dir IN ARRAY array['ASC', 'DESC'] LOOP
        FOR k IN 1 .. 3 LOOP
          CONTINUE WHEN k = 3 AND (tbl NOT IN ('mixed', 'mixed_v7', 'mixed_v7_weak', 'mixed_v67', 'mixed_part',
                                               'mixed_pv7', 'mixed_fp', 'mixed_v47') OR
                                   (settings[i] = 'parallel' AND tbl IN ('mixed', 'mixed_part')));
          q := CASE WHEN k < 3 THEN
                 format('SELECT id::text AS v FROM %I WHERE %s ORDER BY id %s LIMIT 5', tbl,
                        CASE k WHEN 1 THEN format('id <@ %L::tstzrange', rr.r)
                               ELSE coalesce(form_condition(rr.r), 'false') END, dir)
               ELSE format('SELECT uuid_timestamp(id)::text AS v FROM %I WHERE %s ORDER BY uuid_timestamp(id) %s LIMIT 5',
                           tbl, coalesce(form_condition(rr.r, 'uuid_timestamp'), 'false'), dir) END;
          expected_vals := CASE WHEN k = 1 AND dir = 'ASC' THEN rr.first5::text[] WHEN k = 1 THEN rr.last5::text[]
                                WHEN k = 2 AND dir = 'ASC' THEN rr.first5_7::text[] WHEN k = 2 THEN rr.last5_7::text[]
                                WHEN dir = 'ASC' THEN rr.first5_t::text[] ELSE rr.last5_t::text[] END;
          EXECUTE 'SELECT array_agg(v) FROM (' || q || ') s' INTO got_vals;
          counts[i] := counts[i] + 1;
          IF coalesce(got_vals, '{}') IS DISTINCT FROM coalesce(expected_vals, '{}') THEN
            misses[i] := misses[i] + 1;
            EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
            RAISE NOTICE 'mismatch on % with %: % against %; query %; plan %', tbl, settings[i], got_vals,
              expected_vals, q, plan;
          END IF;
        END LOOP;
      END LOOP;
      -- the nullable side of an outer join, the condition in WHERE (which
      -- makes it an inner join) and in ON (the other side's row stays);
      -- and a keyset page: the two keys after the third newest
      CONTINUE WHEN tbl NOT IN ('mixed', 'mixed_part', 'mixed_sparse', 'mixed_v47') OR settings[i] = 'parallel';
      FOR k IN 1 .. 5 LOOP
        q := CASE k
               WHEN 1 THEN format('SELECT count(m.id)::text FROM (VALUES (1)) o(x) LEFT JOIN %I m ON true WHERE m.id <@ %L::tstzrange',
                                  tbl, rr.r)
               WHEN 2 THEN format('SELECT count(m.id)::text FROM (VALUES (1)) o(x) LEFT JOIN %I m ON true WHERE %s', tbl,
                                  replace(coalesce(form_condition(rr.r), 'false'), '(id)', '(m.id)'))
               WHEN 3 THEN format('SELECT count(m.id)::text || '','' || count(*) FROM (VALUES (1)) o(x) LEFT JOIN %I m ON m.id <@ %L::tstzrange',
                                  tbl, rr.r)
               WHEN 4 THEN format('SELECT count(m.id)::text || '','' || count(*) FROM (VALUES (1)) o(x) LEFT JOIN %I m ON %s', tbl,
                                  replace(coalesce(form_condition(rr.r), 'false'), '(id)', '(m.id)'))
               ELSE format('SELECT array_agg(id)::text FROM (SELECT id FROM %I WHERE id <@ %L::tstzrange AND id < %L ORDER BY id DESC LIMIT 2) s',
                           tbl, rr.r, keyset_key)
             END;
        expected_vals := array[CASE k
                                 WHEN 1 THEN rr.rows::text
                                 WHEN 2 THEN rr.rows7::text
                                 WHEN 3 THEN rr.rows || ',' || greatest(rr.rows, 1)
                                 WHEN 4 THEN rr.rows7 || ',' || greatest(rr.rows7, 1)
                                 ELSE keyset_expected
                               END];
        EXECUTE q INTO got_text;
        got_vals := array[got_text];
        counts[i] := counts[i] + 1;
        IF got_vals IS DISTINCT FROM expected_vals THEN
          misses[i] := misses[i] + 1;
          EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
          RAISE NOTICE 'mismatch on % with %: % against %; query %; plan %', tbl, settings[i], got_vals,
            expected_vals, q, plan;
        END IF;
      END LOOP;
    END LOOP;
  END LOOP;
  DROP TABLE truth;
  FOR i IN 1 .. 5 LOOP
    off := settings[i];
    checks := counts[i];
    mismatches := misses[i];
    SELECT string_agg(x, ', ' ORDER BY x) INTO shapes FROM unnest(string_to_array(rtrim(seen[i], ';'), ';')) x;
    RETURN NEXT;
  END LOOP;
END $$;

SELECT t AS "table", c.*
FROM (VALUES ('mixed'), ('mixed_brin'), ('mixed_gist'), ('mixed_rev'), ('mixed_v7'), ('mixed_v7_weak'),
             ('mixed_v67'), ('mixed_part'), ('mixed_pv7'), ('mixed_fp'), ('mixed_v47'), ('mixed_sparse')) v(t)
CROSS JOIN LATERAL check_plans(t) c
WHERE c.checks > 0
ORDER BY 1, 2;
-- As a role that sees its own rows only (the definition sees the same).
GRANT SELECT ON random_ranges TO regress_uuidx_random;
SET ROLE regress_uuidx_random;
SELECT * FROM check_plans('mixed_rls') WHERE checks > 0 ORDER BY 1;
-- (the rows the policy hides: none, whatever the plan, reaches leak())
SELECT * FROM check_plans('mixed_rls_leaky') WHERE checks > 0 ORDER BY 1;
RESET ROLE;
SELECT current_setting('regress.leaked') AS hidden_rows_leaked;

-- A prepared statement's generic plan, where the bounds are computed when
-- the scan starts, against its custom plans.
PREPARE in_random(tstzrange) AS SELECT count(*) FROM mixed WHERE id <@ $1;
PREPARE form_random(timestamptz, timestamptz) AS
  SELECT count(*) FROM mixed_part WHERE uuid_v7_to_timestamptz(id) >= $1 AND uuid_v7_to_timestamptz(id) < $2;
PREPARE ts_random(timestamptz, timestamptz) AS
  SELECT count(*) FROM mixed_v67 WHERE uuid_timestamp(id) >= $1 AND uuid_timestamp(id) < $2;
PREPARE ts_newest_random(timestamptz) AS
  SELECT array_agg(t) FROM (SELECT uuid_timestamp(id) AS t FROM mixed_v7 WHERE uuid_timestamp(id) < $1
                            ORDER BY uuid_timestamp(id) DESC LIMIT 5) s;
CREATE FUNCTION check_generic() RETURNS TABLE (checks int, mismatches int)
LANGUAGE plpgsql AS $$
DECLARE
  rr record;
  stmt text;
  definition text;
  expected text;
  got text;
BEGIN
  checks := 0;
  mismatches := 0;
  SET LOCAL plan_cache_mode = force_generic_plan;
  SET LOCAL enable_seqscan = off;
  FOR rr IN SELECT n, r FROM random_ranges ORDER BY n LOOP
    -- each statement and its definition: the operator; the first form, a
    -- bound NULL where the range has none (no rows then); uuid_timestamp(id)
    -- on a column declared v6 and v7; and the newest five times before the
    -- range's upper bound by uuid_timestamp(id) on one declared v7
    FOR stmt, definition IN VALUES
      (format('EXECUTE in_random(%L)', rr.r),
       format('SELECT count(*) FROM mixed WHERE uuid_version(id) IN (6, 7) AND %L::tstzrange @> uuid_timestamp(id)', rr.r)),
      (format('EXECUTE form_random(%L, %L)', lower(rr.r), upper(rr.r)),
       format('SELECT count(*) FROM mixed_part WHERE (uuid_v7_to_timestamptz(id) >= %L AND uuid_v7_to_timestamptz(id) < %L) IS TRUE',
              lower(rr.r), upper(rr.r))),
      (format('EXECUTE ts_random(%L, %L)', lower(rr.r), upper(rr.r)),
       format('SELECT count(*) FROM mixed_v67 WHERE (uuid_timestamp(id) >= %L AND uuid_timestamp(id) < %L) IS TRUE',
              lower(rr.r), upper(rr.r))),
      (format('EXECUTE ts_newest_random(%L)', upper(rr.r)),
       format('SELECT array_agg(t) FROM (SELECT t FROM (SELECT uuid_timestamp(id) AS t FROM mixed_v7 OFFSET 0) s
               WHERE t < %L ORDER BY t DESC LIMIT 5) s', upper(rr.r)))
    LOOP
      EXECUTE definition INTO expected;
      EXECUTE stmt INTO got;
      checks := checks + 1;
      IF got IS DISTINCT FROM expected THEN
        mismatches := mismatches + 1;
        RAISE NOTICE 'mismatch in the generic plan of %: %, definition %; range %', stmt, got, expected, rr.r;
      END IF;
    END LOOP;
  END LOOP;
  RETURN NEXT;
END $$;
SELECT * FROM check_generic();

-- The shapes whose plans are PostgreSQL's own (SQL 1.5, uuidx 1.5.1),
-- against their definitions: a table partitioned by a form
-- (uuid_v7_to_timestamptz(id), and uuid_timestamp(id) on a column declared
-- v7), a partial index whose predicate is a form's comparison, ORDER BY
-- the form DESC, id DESC, a keyset page as a row comparison, and the
-- pieces written by hand with parts that cross or flags the range
-- constructor refuses (which give NULL row by row).
CREATE TABLE mixed_tpart (id uuid, payload int) PARTITION BY RANGE (uuid_v7_to_timestamptz(id));
CREATE TABLE mixed_tpart_10 PARTITION OF mixed_tpart FOR VALUES FROM ('2026-10-01+00') TO ('2026-11-01+00');
CREATE TABLE mixed_tpart_11 PARTITION OF mixed_tpart FOR VALUES FROM ('2026-11-01+00') TO ('2026-12-01+00');
CREATE TABLE mixed_tpart_default PARTITION OF mixed_tpart DEFAULT;
INSERT INTO mixed_tpart SELECT id, (random() * 3)::int FROM mixed;
CREATE INDEX ON mixed_tpart (id);
CREATE TABLE mixed_tpv7 (id uuid CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), payload int)
  PARTITION BY RANGE (uuid_timestamp(id));
CREATE TABLE mixed_tpv7_10 PARTITION OF mixed_tpv7 FOR VALUES FROM ('2026-10-01+00') TO ('2026-11-01+00');
CREATE TABLE mixed_tpv7_default PARTITION OF mixed_tpv7 DEFAULT;
INSERT INTO mixed_tpv7 SELECT id, (random() * 3)::int FROM mixed_v7;
CREATE INDEX ON mixed_tpv7 (id);
CREATE TABLE mixed_v7_recent (id uuid CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), payload int);
INSERT INTO mixed_v7_recent SELECT id, (random() * 3)::int FROM mixed_v7;
CREATE INDEX ON mixed_v7_recent (id) WHERE uuid_timestamp(id) >= '2026-11-01+00';
CREATE TABLE mixed_rows (id uuid, payload int);
INSERT INTO mixed_rows SELECT id, (random() * 3)::int FROM mixed;
CREATE INDEX ON mixed_rows (id);
ANALYZE mixed_tpart, mixed_tpv7, mixed_v7_recent, mixed_rows;
CREATE FUNCTION check_kept_plans() RETURNS TABLE (off text, checks int, mismatches int)
LANGUAGE plpgsql AS $$
DECLARE
  settings text[] := array['default', 'enable_seqscan', 'enable_indexscan'];
  rr record;
  tbl text;
  fn text;
  cond text;
  stmt text;
  definition text;
  expected text;
  got text;
  lo text;
  hi text;
  flags text;
  plan json;
BEGIN
  FOR i IN 1 .. 3 LOOP
    off := settings[i];
    checks := 0;
    mismatches := 0;
    SET LOCAL enable_seqscan = on;
    SET LOCAL enable_indexscan = on;
    IF i > 1 THEN
      EXECUTE format('SET LOCAL %s = off', settings[i]);
    END IF;
    FOR rr IN SELECT n, r FROM random_ranges WHERE NOT isempty(r) ORDER BY n LOOP
      lo := coalesce(quote_literal(lower(rr.r)) || '::timestamptz', 'NULL');
      hi := coalesce(quote_literal(upper(rr.r)) || '::timestamptz', 'NULL');
      flags := (CASE WHEN lower_inc(rr.r) THEN '[' ELSE '(' END) || (CASE WHEN upper_inc(rr.r) THEN ']' ELSE ')' END);
      FOR stmt, definition IN
        SELECT format('SELECT count(*) FROM %I WHERE %s', t, form_condition(rr.r, f)),
               format('SELECT count(*) FROM (SELECT id FROM %I OFFSET 0) m WHERE (%s) IS TRUE', t, form_condition(rr.r, f))
        FROM (VALUES ('mixed_tpart', 'uuid_v7_to_timestamptz'), ('mixed_tpv7', 'uuid_timestamp'),
                     ('mixed_v7_recent', 'uuid_timestamp')) v(t, f)
        UNION ALL
        SELECT format('SELECT array_agg(id)::text FROM (SELECT id FROM %I WHERE %s ORDER BY uuid_timestamp(id) DESC, id DESC LIMIT 5) s',
                      t, form_condition(rr.r, 'uuid_timestamp')),
               format('SELECT array_agg(id)::text FROM (SELECT id FROM (SELECT id, uuid_timestamp(id) AS t FROM %I OFFSET 0) m
                       WHERE (%s) IS TRUE ORDER BY t DESC, id DESC LIMIT 5) s', t, form_condition(rr.r, 'uuid_timestamp'))
        FROM (VALUES ('mixed_v7'), ('mixed_tpv7'), ('mixed_v7_recent')) v(t)
        UNION ALL
        -- a keyset page: the three rows after the newest key of the range's
        -- first half, as a row comparison
        SELECT format('SELECT array_agg(id || '':'' || payload)::text FROM (SELECT id, payload FROM %I WHERE %s AND (id, payload) < (%L, 1)
                       ORDER BY id DESC, payload DESC LIMIT 3) s', t, form_condition(rr.r), k),
               format('SELECT array_agg(id || '':'' || payload)::text FROM (SELECT id, payload FROM (SELECT * FROM %I OFFSET 0) m
                       WHERE (%s) IS TRUE AND (id, payload) < (%L, 1) ORDER BY id DESC, payload DESC LIMIT 3) s', t, form_condition(rr.r), k)
        FROM (VALUES ('mixed_rows'), ('mixed_tpart')) v(t),
             LATERAL (SELECT coalesce(max(id), 'ffffffff-ffff-ffff-ffff-ffffffffffff') AS k FROM mixed_v7
                      WHERE id <@ tstzrange(lower(rr.r), lower(rr.r) + (upper(rr.r) - lower(rr.r)) / 2)) kk
        UNION ALL
        -- the pieces by hand, with the parts crossed and with flags refused
        SELECT format('SELECT count(*) FROM mixed WHERE %s(id, %s, %s, %L, %s, false)', p, a, b, fl, v),
               format('SELECT count(*) FROM (SELECT id FROM mixed OFFSET 0) m WHERE %s(id, %s, %s, %L, %s, false)', p, a, b, fl, v)
        FROM (VALUES ('uuidx_time_between'), ('uuidx_time_compared')) p(p),
             (VALUES (lo, hi), (hi, lo)) ab(a, b),
             (VALUES (flags), ('xx'), ('[')) fl(fl),
             (VALUES (6), (7)) v(v)
        WHERE rr.n % 4 = 0
      LOOP
        BEGIN
          EXECUTE definition INTO expected;
        EXCEPTION WHEN OTHERS THEN
          expected := SQLERRM;
        END;
        BEGIN
          EXECUTE stmt INTO got;
        EXCEPTION WHEN OTHERS THEN
          got := SQLERRM;
        END;
        checks := checks + 1;
        IF got IS DISTINCT FROM expected THEN
          mismatches := mismatches + 1;
          EXECUTE 'EXPLAIN (FORMAT JSON) ' || stmt INTO plan;
          RAISE NOTICE 'mismatch with %: %, definition %; query %; plan %', settings[i], got, expected, stmt, plan;
        END IF;
      END LOOP;
    END LOOP;
    RETURN NEXT;
  END LOOP;
END $$;
SELECT * FROM check_kept_plans();

DROP VIEW mixed_rls_leaky;
DROP TABLE mixed_rls, mixed_rls_window;
DROP FUNCTION leak(uuid);
DROP TABLE mixed_fp, mixed_tpart, mixed_tpv7, mixed_v7_recent, mixed_rows;
DROP FUNCTION check_kept_plans();
DROP SERVER random_files CASCADE;
DROP EXTENSION file_fdw;
REVOKE SELECT ON random_ranges FROM regress_uuidx_random;
DROP ROLE regress_uuidx_random;
