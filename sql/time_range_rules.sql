-- Time queries keep PostgreSQL's rules (release 1.3.1).  Whatever plan
-- runs them, and whatever uuidx rewrites them into:
--   1. a row-level security policy's time condition, or a security_barrier
--      view's, is checked before the query's own leaky function reads a
--      row: it sees no row the policy hides (v8, v4, v1, other variants,
--      times outside the window);
--   2. a parent whose partition or child is a foreign table declares
--      nothing: PostgreSQL does not enforce a CHECK on a foreign table;
--   3. a time condition rejects NULL keys as the comparison written does,
--      so that PostgreSQL still turns an outer join into an inner one and
--      proves a partial index's predicate id IS NOT NULL;
--   4. the other conditions on the key (a keyset page's id < $1) bound the
--      scans of the key's index;
--   5. estimates hold for windows computed from now(), keys dated far
--      ahead, columns moving from v4 to v7, and rows newer than ANALYZE;
--   6. on a table partitioned by a declared key, a window is the key
--      range alone, checked on no row;
--   7. uuidx.enable_time_ranges_scan = off keeps the planner off the
--      "uuidx time ranges" scan.

SET TimeZone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/helpers.sql'
\i :include
SET jit = off;

-- 1. Row-level security.  Visible: v6 and v7 keys of November 1 to 20;
-- hidden: the same times as v8 keys (which sort among the v7 keys), as v7
-- keys of another variant, as v1 keys, v4 keys, and v7 keys of October.
-- leak() counts the hidden rows it is shown.
CREATE TABLE rls_docs (id uuid PRIMARY KEY, secret text NOT NULL);
INSERT INTO rls_docs
  SELECT CASE k WHEN 0 THEN uuid_timestamptz_to_v7(t, true) WHEN 1 THEN v6_at(t)
                WHEN 2 THEN uuid_v8_from_parts((extract(epoch FROM t) * 1000)::bigint, g % 4096, g)
                WHEN 3 THEN with_variant(uuid_timestamptz_to_v7(t, true), (array['0', 'c', 'e'])[1 + g % 3])
                WHEN 4 THEN uuid_v6_to_v1(v6_at(t)) WHEN 5 THEN v4_of(g)
                ELSE uuid_timestamptz_to_v7(t - interval '25 days', true) END,
         CASE WHEN k < 2 THEN 'visible' ELSE 'hidden' END
  FROM (SELECT g, g % 7 AS k, '2026-11-01 00:00+00'::timestamptz + g * interval '2 minutes' AS t
        FROM generate_series(0, 14399) g) s;
ANALYZE rls_docs;
ALTER TABLE rls_docs ENABLE ROW LEVEL SECURITY;
CREATE ROLE regress_uuidx_rules;
GRANT SELECT ON rls_docs TO regress_uuidx_rules;
CREATE FUNCTION leak(secret text) RETURNS boolean
LANGUAGE plpgsql COST 0.0001 AS $$
BEGIN
  IF secret = 'hidden' THEN
    PERFORM set_config('regress.leaked', (current_setting('regress.leaked')::int + 1)::text, false);
  END IF;
  RETURN true;
END $$;
-- Each query as the policy's role under each plan setting: the hidden
-- rows leak() saw, and the queries that returned other rows than the
-- definition (the visible rows, read without the policy).  Each policy
-- labels the rows it shows visible, the others hidden, first.
CREATE FUNCTION rls_check(policy text, OUT setting text, OUT queries int, OUT leaked int, OUT wrong int)
RETURNS SETOF record
LANGUAGE plpgsql AS $$
DECLARE
  q text;
  got text;
  expected text;
BEGIN
  SET LOCAL client_min_messages = warning;
  EXECUTE 'DROP POLICY IF EXISTS window_policy ON rls_docs';
  RESET client_min_messages;
  EXECUTE format('CREATE POLICY window_policy ON rls_docs TO regress_uuidx_rules USING (%s)', policy);
  EXECUTE format($u$UPDATE rls_docs SET secret = CASE WHEN %s THEN 'visible' ELSE 'hidden' END$u$, policy);
  FOREACH setting IN ARRAY array['default', 'enable_indexscan', 'enable_indexonlyscan', 'enable_bitmapscan',
                                 'enable_seqscan', 'uuidx.enable_time_ranges_scan'] LOOP
    queries := 0;
    leaked := 0;
    wrong := 0;
    FOREACH q IN ARRAY array[
      'SELECT count(*) FROM rls_docs WHERE leak(secret)',
      'SELECT array_agg(id) FROM (SELECT id FROM rls_docs WHERE leak(secret) ORDER BY id DESC LIMIT 5) s',
      'SELECT array_agg(id) FROM (SELECT id FROM rls_docs WHERE leak(secret) ORDER BY id LIMIT 5) s',
      $q$SELECT count(*) FROM rls_docs WHERE leak(secret) AND uuid_v7_to_timestamptz(id) >= '2026-11-10'$q$,
      $q$SELECT count(*) FROM rls_docs WHERE leak(secret) AND uuid_timestamp(id) >= '2026-11-10'$q$,
      $q$SELECT count(*) FROM rls_docs WHERE leak(secret)
           AND uuid_v7_to_timestamptz(id) BETWEEN '2026-11-03' AND '2026-11-04'$q$,
      -- (two comparisons with computed times: one window, uuidx_time_compared())
      $q$SELECT count(*) FROM rls_docs WHERE leak(secret)
           AND uuid_v7_to_timestamptz(id) >= now() - (now() - '2026-11-03'::timestamptz)
           AND uuid_v7_to_timestamptz(id) < now() - (now() - '2026-11-04'::timestamptz)$q$,
      $q$SELECT count(*) FROM rls_docs WHERE leak(secret) AND id <@ '[2026-11-05, 2026-11-06)'::tstzrange$q$,
      $q$SELECT array_agg(id) FROM (SELECT id FROM rls_docs WHERE leak(secret) AND id <@ '[2026-11-05, 2026-11-06)'::tstzrange
                                   ORDER BY id DESC LIMIT 5) s$q$,
      -- (a table the planner proves empty, under a policy's time condition)
      'SELECT count(*) FROM rls_docs WHERE leak(secret) AND false',
      -- (the query repeating the policy's condition, word for word)
      format('SELECT array_agg(id) FROM (SELECT id FROM rls_docs WHERE leak(secret) AND %s ORDER BY id DESC LIMIT 5) s',
             policy),
      format('SELECT count(*) FROM rls_docs WHERE leak(secret) AND %s', policy)] LOOP
      -- the definition: the visible rows, as the superuser reads them
      EXECUTE replace(q, 'leak(secret)', $c$secret = 'visible'$c$) INTO expected;
      IF setting <> 'default' THEN
        PERFORM set_config(setting, 'off', true);
      END IF;
      PERFORM set_config('regress.leaked', '0', false);
      EXECUTE 'SET LOCAL ROLE regress_uuidx_rules';
      EXECUTE q INTO got;
      EXECUTE 'RESET ROLE';
      queries := queries + 1;
      leaked := leaked + current_setting('regress.leaked')::int;
      wrong := wrong + (got IS DISTINCT FROM expected)::int;
      IF setting <> 'default' THEN
        PERFORM set_config(setting, 'on', true);
      END IF;
    END LOOP;
    RETURN NEXT;
  END LOOP;
END $$;
SELECT p AS policy, c.*
FROM (VALUES ($p$id <@ '[2026-11-01, 2026-11-21)'::tstzrange$p$),
             ($p$id <@ tstzrange('2026-11-01'::timestamptz + (now() - now()), '2026-11-21'::timestamptz + (now() - now()))$p$))
     v(p),
     LATERAL rls_check(p) c
ORDER BY 1, 2;
-- Policies in the functions' forms, every form rewritten (BETWEEN, two
-- comparisons with computed times), and one uuid_timestamp() leaves as
-- written on a column that declares nothing: the settings' sums.
SELECT p AS policy, count(*) AS settings, sum(c.queries) AS queries, sum(c.leaked) AS leaked, sum(c.wrong) AS wrong
FROM (VALUES ($p$uuid_v7_to_timestamptz(id) BETWEEN '2026-11-01' AND '2026-11-20 23:59:59'$p$),
             ($p$uuid_v7_to_timestamptz(id) >= now() - (now() - '2026-11-01'::timestamptz)
                AND uuid_v7_to_timestamptz(id) < now() - (now() - '2026-11-21'::timestamptz)$p$),
             ($p$uuid_timestamp(id) >= '2026-11-01' AND uuid_timestamp(id) < '2026-11-21'$p$))
     v(p),
     LATERAL rls_check(p) c
GROUP BY 1
ORDER BY 1;
-- A security_barrier view's time condition, likewise before the query's
-- (the rows labeled as its window shows them).
UPDATE rls_docs SET secret = CASE WHEN id <@ '[2026-11-01, 2026-11-21)'::tstzrange THEN 'visible' ELSE 'hidden' END;
CREATE VIEW rls_window WITH (security_barrier) AS
  SELECT * FROM rls_docs WHERE id <@ '[2026-11-01, 2026-11-21)'::tstzrange;
SELECT set_config('regress.leaked', '0', false) AS reset;
SELECT count(*) AS rows, current_setting('regress.leaked') AS leaked FROM rls_window WHERE leak(secret);
SELECT array_agg(id) = (SELECT array_agg(id) FROM (SELECT id FROM rls_docs WHERE secret = 'visible' ORDER BY id DESC LIMIT 5) s)
         AS newest_five, current_setting('regress.leaked') AS leaked
FROM (SELECT id FROM rls_window WHERE leak(secret) ORDER BY id DESC LIMIT 5) s;
DROP VIEW rls_window;
DROP TABLE rls_docs;
DROP FUNCTION rls_check(text), leak(text);

-- 2. Foreign tables under a declared parent.  file_fdw reads files this
-- test writes into the data directory: v1 keys, and v4 keys.
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
DO $$
BEGIN
  EXECUTE format($c$COPY (SELECT uuid_v6_to_v1(v6_at('2026-11-20 12:00+00'::timestamptz + g * interval '1 minute'))
                          FROM generate_series(0, 4) g) TO %L$c$,
                 current_setting('data_directory') || '/uuidx_rules_v1.txt');
  EXECUTE format('COPY (SELECT v4_of(g) FROM generate_series(0, 4) g) TO %L',
                 current_setting('data_directory') || '/uuidx_rules_v4.txt');
END $$;
-- partitioned, declared to hold no v1 key, with a foreign partition of v1 keys
CREATE TABLE fp_no_v1 (id uuid NOT NULL CHECK (uuid_version(id) <> 1)) PARTITION BY RANGE (id);
CREATE TABLE fp_no_v1_local PARTITION OF fp_no_v1 FOR VALUES FROM (MINVALUE) TO ('80000000-0000-0000-0000-000000000000');
INSERT INTO fp_no_v1
  SELECT uuid_timestamptz_to_v7('2026-11-20 12:00+00'::timestamptz + g * interval '1 minute', true) FROM generate_series(0, 4) g;
CREATE FOREIGN TABLE fp_no_v1_foreign PARTITION OF fp_no_v1
  FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO (MAXVALUE)
  SERVER files OPTIONS (filename 'uuidx_rules_v1.txt');
-- partitioned, declared v7, with a foreign partition of v4 keys
CREATE TABLE fp_v7 (id uuid NOT NULL CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2)) PARTITION BY RANGE (id);
CREATE TABLE fp_v7_local PARTITION OF fp_v7 FOR VALUES FROM (MINVALUE) TO ('80000000-0000-0000-0000-000000000000');
INSERT INTO fp_v7 SELECT id FROM fp_no_v1_local;
CREATE FOREIGN TABLE fp_v7_foreign PARTITION OF fp_v7
  FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO (MAXVALUE)
  SERVER files OPTIONS (filename 'uuidx_rules_v4.txt');
-- an inheritance parent declared v7, with a foreign child of v1 keys
CREATE TABLE fi_v7 (id uuid CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2));
INSERT INTO fi_v7 SELECT id FROM fp_no_v1_local;
CREATE FOREIGN TABLE fi_v7_foreign () INHERITS (fi_v7) SERVER files OPTIONS (filename 'uuidx_rules_v1.txt');
ANALYZE fp_no_v1_local, fp_v7_local, fi_v7;
-- The rows of each form, against the functions' own, and the order of
-- uuid_timestamp(id) (NULL, last, for a v4 key).
SELECT t AS "table", f AS condition, rows_of(format('SELECT 1 FROM %I WHERE %s', t, f)) AS got, defined_rows(t, f) AS defined
FROM (VALUES ('fp_no_v1'), ('fp_v7'), ('fi_v7')) tt(t),
     (VALUES ($f$uuid_timestamp(id) >= '2026-11-20 12:00'$f$),
             ($f$uuid_timestamp(id) BETWEEN '2026-11-20 12:00' AND '2026-11-20 13:00'$f$),
             ($f$id <@ '[2026-11-20 12:00, 2026-11-20 13:00)'::tstzrange$f$)) ff(f)
ORDER BY 1, 2;
SELECT array_agg(uuid_version(id)) AS versions_in_time_order
FROM (SELECT id FROM fp_v7 ORDER BY uuid_timestamp(id) LIMIT 5) s;
-- A generic plan made before a foreign partition is attached is made anew.
CREATE TABLE fp_late (id uuid NOT NULL CHECK (uuid_version(id) <> 1)) PARTITION BY RANGE (id);
CREATE TABLE fp_late_local PARTITION OF fp_late FOR VALUES FROM (MINVALUE) TO ('80000000-0000-0000-0000-000000000000');
INSERT INTO fp_late SELECT id FROM fp_no_v1_local;
PREPARE late_count AS SELECT count(*) FROM fp_late WHERE uuid_timestamp(id) >= '2026-11-20 12:00';
SET plan_cache_mode = force_generic_plan;
EXECUTE late_count;
CREATE FOREIGN TABLE fp_late_foreign PARTITION OF fp_late
  FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO (MAXVALUE)
  SERVER files OPTIONS (filename 'uuidx_rules_v1.txt');
EXECUTE late_count;
RESET plan_cache_mode;
DEALLOCATE late_count;
DROP TABLE fp_no_v1, fp_v7, fi_v7, fp_late CASCADE;
DROP SERVER files CASCADE;
DROP EXTENSION file_fdw;

-- A range the query builds whose bounds cross raises the constructor's
-- error wherever it stands, as it does written without uuidx; two
-- comparisons whose times cross hold no row, and raise nothing.
CREATE TABLE crossed (id uuid PRIMARY KEY, n int);
INSERT INTO crossed SELECT uuid_timestamptz_to_v7('2026-11-20 00:00+00'::timestamptz - g * interval '1 minute', true), g
FROM generate_series(1, 3000) g;
ANALYZE crossed;
SELECT count(*) FROM generate_series(1, 10) o(g)
  LEFT JOIN crossed c ON c.n = o.g AND c.id <@ tstzrange('2026-11-20'::timestamptz + (now() - now()), '2026-11-19'::timestamptz + (now() - now()));
SELECT count(*) FROM generate_series(1, 10) o(g)
  WHERE NOT EXISTS (SELECT 1 FROM crossed c WHERE c.n = o.g
                    AND c.id <@ tstzrange('2026-11-20'::timestamptz + (now() - now()), '2026-11-19'::timestamptz + (now() - now())));
SELECT count(*) FROM crossed WHERE id <@ tstzrange('2026-11-20'::timestamptz, (SELECT '2026-11-19'::timestamptz));
SELECT count(*) FROM crossed WHERE id <@ tstzrange(now(), now(), 'x');
SELECT count(*) FROM crossed
WHERE uuid_v7_to_timestamptz(id) BETWEEN '2026-11-20'::timestamptz + (now() - now()) AND '2026-11-19'::timestamptz + (now() - now());
DROP TABLE crossed;

-- 3. Strict in the key.  An outer join whose nullable side a time
-- condition rejects is an inner join; a partial index on a sparse column
-- answers.
CREATE TABLE strict_o (n int PRIMARY KEY);
INSERT INTO strict_o SELECT g FROM generate_series(1, 1000) g;
CREATE TABLE strict_e (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2),
                       n int NOT NULL, ref uuid);
INSERT INTO strict_e
  SELECT uuid_timestamptz_to_v7('2026-11-01 00:00+00'::timestamptz + g * interval '1 minute', true), g % 1000 + 1,
         CASE WHEN g % 100 = 0 THEN uuid_timestamptz_to_v7('2026-11-01 00:00+00'::timestamptz + g * interval '1 minute', true) END
  FROM generate_series(0, 29999) g;
CREATE INDEX ON strict_e (n);
CREATE INDEX strict_e_ref ON strict_e (ref) WHERE ref IS NOT NULL;
ANALYZE strict_o, strict_e;
SELECT c AS "condition",
       plan_text(format('SELECT count(*) FROM strict_o o LEFT JOIN strict_e e ON e.n = o.n WHERE %s', c)) !~ 'Left Join'
         AS inner_join,
       rows_of(format('SELECT 1 FROM strict_o o LEFT JOIN strict_e e ON e.n = o.n WHERE %s', c)) AS rows
FROM (VALUES ($c$uuid_timestamp(e.id) >= '2026-11-20 12:00'$c$),
             ($c$uuid_v7_to_timestamptz(e.id) BETWEEN '2026-11-20 12:00' AND '2026-11-20 14:00'$c$),
             ($c$uuid_v7_to_timestamptz(e.id) >= '2026-11-20 12:00'::timestamptz + (now() - now())$c$),
             ($c$e.id <@ tstzrange('2026-11-20 12:00'::timestamptz + (now() - now()), NULL)$c$),
             ($c$e.id <@ '[2026-11-20 12:00, 2026-11-20 14:00)'::tstzrange$c$)) v(c)
ORDER BY 1;
SELECT c AS "condition", plan_text(format('SELECT count(*) FROM strict_e WHERE %s', c)) ~ 'strict_e_ref' AS partial_index,
       rows_of(format('SELECT 1 FROM strict_e WHERE %s', c)) AS rows
FROM (VALUES ($c$uuid_v7_to_timestamptz(ref) >= '2026-11-20 12:00'$c$),
             ($c$uuid_v7_to_timestamptz(ref) >= '2026-11-20 12:00'::timestamptz + (now() - now())$c$),
             ($c$ref <@ tstzrange('2026-11-20 12:00'::timestamptz + (now() - now()), NULL)$c$),
             ($c$ref <@ '[2026-11-20 12:00, 2026-11-20 14:00)'::tstzrange$c$)) v(c)
ORDER BY 1;
-- A column of a relation no outer join nulls, NOT NULL and without a
-- partial index, gets no test of its own.
SELECT plan_text($$SELECT count(*) FROM strict_e WHERE uuid_v7_to_timestamptz(id) >= '2026-11-20 12:00'$$) !~ 'IS NOT NULL'
  AS no_null_test;

-- 4. Keyset pages: each page's id < $1 bounds the scans of the key's index.
CREATE TABLE keyset (id uuid PRIMARY KEY, n int);
INSERT INTO keyset
  SELECT CASE WHEN g % 10 = 0 THEN v6_at(t) ELSE uuid_timestamptz_to_v7(t, true) END, g
  FROM (SELECT g, '2026-11-01 00:00+00'::timestamptz + g * interval '10 seconds' AS t FROM generate_series(0, 49999) g) s;
ANALYZE keyset;
-- Five rows of a window and a comparison of the key, in key order, by
-- the scan and by the definition.
CREATE FUNCTION keyset_page(r text, cmp text, dir text) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY EXECUTE format('SELECT id FROM keyset WHERE id <@ %L::tstzrange AND %s ORDER BY id %s LIMIT 5', r, cmp, dir);
END $$;
CREATE FUNCTION keyset_defined(r text, cmp text, dir text) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY EXECUTE format('SELECT id FROM keyset WHERE uuid_version(id) IN (6, 7) AND %L::tstzrange @> uuid_timestamp(id) AND %s ORDER BY id %s LIMIT 5',
                              r, cmp, dir);
END $$;
PREPARE page(uuid) AS
  SELECT id FROM keyset WHERE id <@ '[2026-11-03, 2026-11-04)'::tstzrange AND id < $1 ORDER BY id DESC LIMIT 10;
SET plan_cache_mode = force_generic_plan;
SELECT plan_text('EXECUTE page(''ffffffff-ffff-ffff-ffff-ffffffffffff'')') ~ 'Index Cond: .*\(id < \$1\)' AS bounded_by_page;
DEALLOCATE page;
-- all pages, one after the other (a generic plan in PL/pgSQL), against
-- the definition
CREATE FUNCTION all_pages() RETURNS TABLE (pages int, same boolean)
LANGUAGE plpgsql AS $$
DECLARE
  last uuid := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
  got uuid[] := '{}';
  page_ids uuid[];
BEGIN
  pages := 0;
  LOOP
    SELECT array_agg(id ORDER BY id DESC) INTO page_ids
    FROM (SELECT id FROM keyset WHERE id <@ '[2026-11-03, 2026-11-04)'::tstzrange AND id < last
          ORDER BY id DESC LIMIT 10) s;
    EXIT WHEN page_ids IS NULL;
    pages := pages + 1;
    got := got || page_ids;
    last := page_ids[array_length(page_ids, 1)];
  END LOOP;
  same := got = (SELECT array_agg(id ORDER BY id DESC) FROM keyset
                 WHERE uuid_version(id) IN (6, 7) AND '[2026-11-03, 2026-11-04)'::tstzrange @> uuid_timestamp(id));
  RETURN NEXT;
END $$;
SELECT * FROM all_pages();
-- A page of v7 keys never starts the scan of the v6 keys' range, which its
-- id < $1 excludes (the scan evaluates $1 itself, once).
PREPARE page(uuid) AS
  SELECT id FROM keyset WHERE id <@ '[2026-11-03, 2026-11-04)'::tstzrange AND id < $1 ORDER BY id DESC LIMIT 10;
CREATE FUNCTION children_started(last uuid) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  line text;
  started int := 0;
BEGIN
  FOR line IN EXECUTE format('EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE page(%L)', last) LOOP
    IF line ~ '->  Index' AND line !~ 'never executed' THEN
      started := started + 1;
    END IF;
  END LOOP;
  RETURN started;
END $$;
SELECT children_started(uuid_timestamptz_to_v7('2026-11-03 12:00+00')) AS page_of_v7_keys,
       children_started(v6_at('2026-11-03 12:00+00')) AS page_of_v6_keys,
       children_started(NULL) AS page_after_null;
DEALLOCATE page;
-- Only comparisons the children evaluate anyway (operators of the index's
-- family, index conditions) are evaluated by the scan: another operator
-- with uuid_lt is a filter, never run on an empty window.
CREATE OPERATOR <<< (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_lt);
CREATE FUNCTION pick(t text) RETURNS uuid
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF t = 'boom' THEN
    RAISE EXCEPTION 'pick(boom) was evaluated';
  END IF;
  RETURN t::uuid;
END $$;
PREPARE other(text) AS
  SELECT id FROM keyset WHERE id <@ '[2027-01-01, 2027-01-02)'::tstzrange AND pick($1) <<< id ORDER BY id LIMIT 5;
EXECUTE other('boom');
DEALLOCATE other;
DROP OPERATOR <<< (uuid, uuid);
DROP FUNCTION pick(text);
RESET plan_cache_mode;
DROP FUNCTION all_pages(), children_started(uuid);
-- The key's other comparisons, each operator and either side, with a
-- value in the v7 keys' range, in the v6 keys', past both, and NULL:
-- the rows of the definition, ordered or not.
SELECT count(*) AS cases,
       count(*) FILTER (WHERE rows_of(format('SELECT 1 FROM keyset WHERE id <@ %L::tstzrange AND %s', r, cmp))
                              <> rows_of(format('SELECT 1 FROM keyset WHERE uuid_version(id) IN (6, 7) AND %L::tstzrange @> uuid_timestamp(id) AND %s', r, cmp)))
         AS wrong_counts,
       count(*) FILTER (WHERE NOT (SELECT x FROM (SELECT
              (SELECT array_agg(k) FROM keyset_page(r, cmp, 'ASC') k) IS NOT DISTINCT FROM
              (SELECT array_agg(k) FROM keyset_defined(r, cmp, 'ASC') k) AND
              (SELECT array_agg(k) FROM keyset_page(r, cmp, 'DESC') k) IS NOT DISTINCT FROM
              (SELECT array_agg(k) FROM keyset_defined(r, cmp, 'DESC') k) AS x) s)) AS wrong_pages
FROM (VALUES ('[2026-11-03, 2026-11-04)'), ('[2026-11-03 10:00, 2026-11-03 10:10)')) w(r),
     LATERAL (SELECT format(f, v)
              FROM unnest(array['id < %L', 'id <= %L', 'id = %L', 'id >= %L', 'id > %L',
                                '%L > id', '%L >= id', '%L = id', '%L <= id', '%L < id']) f,
                   unnest(array[uuid_timestamptz_to_v7('2026-11-03 10:05+00', true)::text,
                                (SELECT min(id) FROM keyset WHERE uuid_version(id) = 7 AND id >= uuid_timestamptz_to_v7('2026-11-03 10:05+00'))::text,
                                v6_at('2026-11-03 10:05+00')::text,
                                (SELECT min(id) FROM keyset WHERE uuid_version(id) = 6 AND uuid_timestamp(id) >= '2026-11-03 10:05+00')::text,
                                'ffffffff-ffff-ffff-ffff-ffffffffffff', '00000000-0000-0000-0000-000000000000', NULL]) v) c(cmp);

-- 5. Estimates, within twice the rows: a window computed from now() on
-- both sides; a window open towards the future on a column with one key
-- ten years ahead; a column moved from v4 to v7 keys; rows inserted since
-- ANALYZE.
CREATE TABLE est_keys (id uuid PRIMARY KEY);
INSERT INTO est_keys
  SELECT uuid_timestamptz_to_v7(now() - interval '30 days' + g * interval '1 minute', true) FROM generate_series(0, 43199) g;
CREATE TABLE est_ahead (id uuid PRIMARY KEY);
INSERT INTO est_ahead SELECT id FROM est_keys UNION ALL SELECT uuid_timestamptz_to_v7(now() + interval '10 years', true);
CREATE TABLE est_moved (id uuid PRIMARY KEY CHECK (uuid_version(id) IN (4, 7)));
INSERT INTO est_moved SELECT id FROM est_keys UNION ALL SELECT v4_of(g) FROM generate_series(1, 43200) g;
CREATE TABLE est_newer (id uuid PRIMARY KEY);
INSERT INTO est_newer SELECT id FROM est_keys WHERE uuid_v7_to_timestamptz(id) < now() - interval '2 days';
-- (every row in ANALYZE's sample, 300 times the target: the same
-- statistics every run, where a sample of 30,000 of est_moved's 86,400
-- rows once put its last hour's estimate past twice the count)
SET default_statistics_target = 300;
ANALYZE est_keys, est_ahead, est_moved, est_newer;
RESET default_statistics_target;
INSERT INTO est_newer SELECT uuid_timestamptz_to_v7(now() - g * interval '10 ms') FROM generate_series(1, 1200) g;
SELECT q AS query, estimate_ratio(q) BETWEEN 0.5 AND 2 AS within_2x
FROM (VALUES ($q$SELECT * FROM est_keys WHERE uuid_v7_to_timestamptz(id) >= now() - interval '20 days' AND uuid_v7_to_timestamptz(id) < now() - interval '19 days'$q$),
             ($q$SELECT * FROM est_keys WHERE uuid_v7_to_timestamptz(id) BETWEEN now() - interval '20 days' AND now() - interval '19 days'$q$),
             ($q$SELECT * FROM est_ahead WHERE id <@ tstzrange(now() - interval '1 day', NULL)$q$),
             ($q$SELECT * FROM est_moved WHERE uuid_timestamp(id) >= now() - interval '1 hour'$q$),
             ($q$SELECT * FROM est_moved WHERE uuid_timestamp(id) < now() - interval '20 days'$q$),
             ($q$SELECT * FROM est_newer WHERE id <@ tstzrange(now() - interval '12 hours', now())$q$)) v(q)
ORDER BY 1;
DROP TABLE est_keys, est_ahead, est_moved, est_newer;

-- 6. A table partitioned by a key declared v7 of the RFC variant: a
-- window's count is an index-only scan of the key range, no row checked.
CREATE TABLE part_decl (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2)) PARTITION BY RANGE (id);
CREATE TABLE part_decl_1 PARTITION OF part_decl
  FOR VALUES FROM (uuid_v7_lower_bound('2026-11-01+00')) TO (uuid_v7_lower_bound('2026-11-02+00'));
CREATE TABLE part_decl_2 PARTITION OF part_decl
  FOR VALUES FROM (uuid_v7_lower_bound('2026-11-02+00')) TO (uuid_v7_lower_bound('2026-11-03+00'));
INSERT INTO part_decl
  SELECT uuid_timestamptz_to_v7('2026-11-01 00:00+00'::timestamptz + g * interval '10 seconds', true) FROM generate_series(0, 17279) g;
VACUUM ANALYZE part_decl;
SELECT c AS "condition", plan_text(format('SELECT count(*) FROM part_decl WHERE %s', c)) ~ 'Index Only Scan' AS index_only,
       plan_text(format('SELECT count(*) FROM part_decl WHERE %s', c)) !~ '(^|\n) *(->  )?Filter' AS no_check_per_row,
       rows_of(format('SELECT 1 FROM part_decl WHERE %s', c)) AS rows
FROM (VALUES ($c$id <@ '[2026-11-02 10:00, 2026-11-02 11:00)'::tstzrange$c$),
             ($c$id <@ tstzrange('2026-11-02 10:00'::timestamptz + (now() - now()), '2026-11-02 11:00'::timestamptz + (now() - now()))$c$),
             ($c$uuid_timestamp(id) >= '2026-11-02 10:00'::timestamptz + (now() - now()) AND uuid_timestamp(id) < '2026-11-02 11:00'::timestamptz + (now() - now())$c$),
             ($c$uuid_v7_to_timestamptz(id) BETWEEN '2026-11-02 10:00' AND '2026-11-02 11:00'$c$)) v(c)
ORDER BY 1;
DROP TABLE part_decl;

-- 7. The switch: where the planner takes the scan, off it takes another.
SET enable_bitmapscan = off;
SELECT plan_text($$SELECT count(*) FROM keyset WHERE id <@ '[2026-11-03 10:00, 2026-11-03 11:00)'::tstzrange$$) ~ 'uuidx time ranges' AS scan_on;
SET uuidx.enable_time_ranges_scan = off;
SELECT plan_text($$SELECT count(*) FROM keyset WHERE id <@ '[2026-11-03 10:00, 2026-11-03 11:00)'::tstzrange$$) !~ 'uuidx time ranges' AS scan_off,
       (SELECT count(*) FROM keyset WHERE id <@ '[2026-11-03 10:00, 2026-11-03 11:00)'::tstzrange) AS rows;
RESET uuidx.enable_time_ranges_scan;
RESET enable_bitmapscan;
DROP TABLE keyset, strict_o, strict_e;
DROP FUNCTION keyset_page(text, text, text), keyset_defined(text, text, text);
DROP ROLE regress_uuidx_rules;
