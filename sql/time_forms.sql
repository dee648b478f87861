-- The time queries users write: uuid_timestamp(id) and pg_uuidv7's
-- uuid_v7_to_timestamptz(id) compared with a time, or contained in a
-- range.  Answered from id's index where that is exact: uuid_v7_to_timestamptz
-- reads v7 keys only, on any column; uuid_timestamp also reads v1 keys,
-- whose time has no key range, so only on a column whose constraints
-- exclude them.  Always the rows the functions themselves give.  (Core's
-- uuid_extract_timestamp, which reads v7 keys from PostgreSQL 18: time_forms_pg18.)

SET TimeZone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/helpers.sql'
\i :include




-- The first scan node of a plan, and whether any node filters on the
-- functions as written (a form left alone).
CREATE OR REPLACE FUNCTION plan_shape(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  line text;
  shape text := '';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    IF line ~ '(Scan|Custom Scan)' AND shape = '' THEN
      shape := regexp_replace(line, '^[ >-]*', '');
      shape := regexp_replace(shape, ' on .*| using .*', '');
    END IF;
    IF line ~ 'Filter: .*(uuid_timestamp|uuid_v7_to_timestamptz)\(' THEN
      RETURN shape || ', filtered as written';
    END IF;
  END LOOP;
  RETURN shape;
END $$;

-- 30,000 v7 keys, one every three minutes from 2026-09-20 to 2026-11-21,
-- in a column that declares nothing, in one declared to hold v7 keys of
-- the RFC variant only, and in one declared to hold v6 and v7 keys (with
-- a v6 key beside each tenth v7).
CREATE TABLE forms_v7 (id uuid PRIMARY KEY);
INSERT INTO forms_v7
  SELECT uuid_timestamptz_to_v7('2026-09-20 00:00+00'::timestamptz + g * interval '3 minutes', true)
  FROM generate_series(0, 29999) g;
CREATE TABLE forms_decl (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2));
INSERT INTO forms_decl SELECT id FROM forms_v7;
CREATE TABLE forms_67 (id uuid PRIMARY KEY CHECK (uuid_version(id) IN (6, 7)));
INSERT INTO forms_67 SELECT id FROM forms_v7;
INSERT INTO forms_67
  SELECT v6_at('2026-09-20 00:00+00'::timestamptz + g * interval '30 minutes' + interval '1 second')
  FROM generate_series(0, 2999) g;
-- Every kind of UUID: v1, v4, v6, v7, v8, other variants, NULL.
CREATE TABLE forms_any (id uuid);
INSERT INTO forms_any
  SELECT CASE g % 7
           WHEN 0 THEN uuid_timestamptz_to_v7(t)
           WHEN 1 THEN v6_at(t)
           WHEN 2 THEN uuid_v6_to_v1(v6_at(t))
           WHEN 3 THEN md5(g::text)::uuid
           WHEN 4 THEN uuid_v8_from_parts((extract(epoch FROM t) * 1000)::bigint, 0, 0)
           WHEN 5 THEN overlay(replace(uuid_timestamptz_to_v7(t)::text, '-', '') PLACING 'c' FROM 17 FOR 1)::uuid
           ELSE NULL
         END
  FROM (SELECT g, '2026-09-20 00:00+00'::timestamptz + g * interval '7 minutes' AS t
        FROM generate_series(0, 13999) g) s;
CREATE INDEX ON forms_any (id);
VACUUM ANALYZE forms_v7, forms_decl, forms_67, forms_any;

-- 1. Which forms use the index, on which columns.
SELECT t AS "table", f AS form, plan_shape(format('SELECT count(*) FROM %I WHERE %s', t, f)) AS plan
FROM (VALUES ('forms_v7'), ('forms_decl'), ('forms_67'), ('forms_any')) tt(t),
     (VALUES ($$uuid_timestamp(id) >= '2026-11-20'$$),
             ($$uuid_timestamp(id) >= now() - interval '1 hour'$$),
             ($$uuid_timestamp(id) BETWEEN '2026-10-20' AND '2026-10-21'$$),
             ($$'2026-10-21' > uuid_timestamp(id)$$),
             ($$uuid_timestamp(id) <@ tstzrange('2026-10-20', '2026-10-21')$$),
             ($$uuid_v7_to_timestamptz(id) >= '2026-11-20'$$),
             ($$uuid_v7_to_timestamptz(id) BETWEEN '2026-10-20' AND '2026-10-21'$$),
             ($$tstzrange('2026-10-20', '2026-10-21') @> uuid_v7_to_timestamptz(id)$$)) ff(f)
ORDER BY 1, 2;

-- The plans in full, for the common column and the declared one.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM forms_v7 WHERE uuid_v7_to_timestamptz(id) >= now() - interval '1 hour';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM forms_decl WHERE uuid_timestamp(id) BETWEEN '2026-10-20' AND '2026-10-21';
EXPLAIN (COSTS OFF)
SELECT * FROM forms_67 WHERE uuid_timestamp(id) >= '2026-11-20' ORDER BY id DESC LIMIT 5;
-- A time that may be NULL is checked once: a NULL time holds no row.
PREPARE since(timestamptz) AS SELECT count(*) FROM forms_decl WHERE uuid_timestamp(id) >= $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE since('2026-11-20');
EXECUTE since('2026-11-20');
EXECUTE since(NULL);
RESET plan_cache_mode;
SELECT count(*) AS null_time FROM forms_v7 WHERE uuid_v7_to_timestamptz(id) >= NULL::timestamptz;

-- 2. The same rows as the functions give, on every column, for each
-- operator, both ways round, and times between keys, on keys, and outside
-- the data.
CREATE FUNCTION check_forms() RETURNS TABLE (checks int, mismatches int)
LANGUAGE plpgsql AS $$
DECLARE
  tbl text;
  fn text;
  op text;
  t timestamptz;
  conditions text[];
  q text;
  got bigint;
  expected bigint;
BEGIN
  checks := 0;
  mismatches := 0;
  FOREACH fn IN ARRAY array['uuid_timestamp', 'uuid_v7_to_timestamptz'] LOOP
    -- contained in a range, two comparisons, and a time that comes after
    -- the other in BETWEEN
    conditions := array[format('%s(id) <@ tstzrange(%L, %L, %L)', fn, '2026-10-20 00:00+00', '2026-10-20 01:00+00', '(]'),
                        format('%s(id) <@ %L::tstzrange', fn, '[2026-10-20 00:00+00,)'),
                        format('%s(id) <@ NULL::tstzrange', fn),
                        format('%s(id) >= now() - interval %L AND %s(id) < now()', fn, '1000 days', fn),
                        format('%s(id) BETWEEN %L AND %L', fn, '2026-10-21 00:00+00', '2026-10-20 00:00+00')];
    FOREACH op IN ARRAY array['<', '<=', '=', '>=', '>'] LOOP
      FOREACH t IN ARRAY array['2026-10-20 00:00+00', '2026-10-20 00:00:00.0005+00', '2026-10-20 00:00:01+00',
                               '2026-10-20 00:01:00.000001+00', '1960-01-01+00', '2100-01-01+00',
                               '-infinity', 'infinity']::timestamptz[] LOOP
        conditions := conditions || format('%s(id) %s %L::timestamptz', fn, op, t)
                                 || format('%L::timestamptz %s %s(id)', t, op, fn);
      END LOOP;
    END LOOP;
    FOREACH tbl IN ARRAY array['forms_v7', 'forms_decl', 'forms_67', 'forms_any'] LOOP
      FOREACH q IN ARRAY conditions LOOP
        EXECUTE format('SELECT count(*) FROM %I WHERE %s', tbl, q) INTO got;
        expected := defined_rows(tbl, q);
        checks := checks + 1;
        IF got IS DISTINCT FROM expected THEN
          mismatches := mismatches + 1;
          RAISE NOTICE 'mismatch on %: % gives % rows, the definition %', tbl, q, got, expected;
        END IF;
      END LOOP;
    END LOOP;
  END LOOP;
  RETURN NEXT;
END $$;
SELECT * FROM check_forms();

-- A form under NOT, OR or IS TRUE is left as written (the planner may
-- still turn NOT (a >= b) into a < b, which stays a filter): the same
-- rows as the definition.
SELECT t AS "table", c AS "condition", plan_shape(format('SELECT count(*) FROM %I WHERE %s', t, c)) AS plan,
       rows_of(format('SELECT 1 FROM %I WHERE %s', t, c)) = defined_rows(t, c) AS same_count
FROM (VALUES ('forms_decl'), ('forms_any')) tt(t),
     (VALUES ($$(uuid_timestamp(id) >= '2026-11-20') IS TRUE$$),
             ($$(uuid_timestamp(id) >= '2026-11-20') IS NOT TRUE$$),
             ($$NOT (uuid_timestamp(id) >= '2026-11-20')$$),
             ($$NOT (uuid_v7_to_timestamptz(id) <@ tstzrange('2026-10-20', '2026-11-20'))$$),
             ($$uuid_timestamp(id) >= '2026-11-20' OR uuid_v7_to_timestamptz(id) < '2026-09-21'$$)) cc(c)
ORDER BY 1, 2;

-- 3. ORDER BY uuid_timestamp(id) on a column whose keys are all v7 keys
-- of the RFC variant walks the index; the times come in order.  Elsewhere
-- (a key of another variant could sort anywhere) the rows are sorted.
EXPLAIN (COSTS OFF)
SELECT id FROM forms_decl ORDER BY uuid_timestamp(id) DESC LIMIT 5;
EXPLAIN (COSTS OFF)
SELECT uuid_timestamp(id) AS t FROM forms_decl WHERE uuid_timestamp(id) < '2026-10-01' ORDER BY t LIMIT 5;
EXPLAIN (COSTS OFF)
SELECT id FROM forms_v7 ORDER BY uuid_timestamp(id) DESC LIMIT 5;
SELECT array_agg(t) = (SELECT array_agg(t) FROM (SELECT uuid_timestamp(id) AS t FROM forms_v7 ORDER BY 1 DESC LIMIT 5) d)
       AS newest_in_order
FROM (SELECT uuid_timestamp(id) AS t FROM forms_decl ORDER BY uuid_timestamp(id) DESC LIMIT 5) s;
-- with ties, and a second key after it, as written
EXPLAIN (COSTS OFF)
SELECT id FROM forms_decl ORDER BY uuid_timestamp(id) DESC FETCH FIRST 5 ROWS WITH TIES;
EXPLAIN (COSTS OFF)
SELECT id FROM forms_decl ORDER BY uuid_timestamp(id), id DESC LIMIT 5;

-- 4. A table partitioned by range of the key, declared v7: a window built
-- from the time prunes to the partitions that can hold it, the default
-- partition included.
CREATE TABLE forms_part (id uuid NOT NULL, CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2))
  PARTITION BY RANGE (id);
CREATE TABLE forms_part_09 PARTITION OF forms_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-09-01+00')) TO (uuid_v7_lower_bound('2026-10-01+00'));
CREATE TABLE forms_part_10 PARTITION OF forms_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-10-01+00')) TO (uuid_v7_lower_bound('2026-11-01+00'));
CREATE TABLE forms_part_11 PARTITION OF forms_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-11-01+00')) TO (uuid_v7_lower_bound('2026-12-01+00'));
CREATE TABLE forms_part_default PARTITION OF forms_part DEFAULT;
INSERT INTO forms_part SELECT id FROM forms_v7;
CREATE INDEX ON forms_part (id);
VACUUM ANALYZE forms_part;
-- The partitions a plan scans, and how many rows it finds against the
-- definition.
CREATE FUNCTION partitions_scanned(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  line text;
  found text[] := '{}';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    IF line ~ ' on forms_part_' THEN
      found := found || substring(line FROM ' on (forms_part_[a-z0-9]+)');
    END IF;
  END LOOP;
  RETURN (SELECT string_agg(DISTINCT p, ', ') FROM unnest(found) p);
END $$;
SELECT w AS "where", partitions_scanned('SELECT count(*) FROM forms_part WHERE ' || w) AS scanned,
       rows_of('SELECT 1 FROM forms_part WHERE ' || w) =
       defined_rows('forms_v7', w) AS same_count
FROM (VALUES ($$uuid_timestamp(id) >= '2026-11-20'$$),
             ($$uuid_timestamp(id) >= '2026-10-31 23:00+00' AND uuid_timestamp(id) < '2026-11-01 01:00+00'$$),
             ($$uuid_timestamp(id) <@ tstzrange('2026-10-10', '2026-10-11')$$),
             ($$uuid_v7_to_timestamptz(id) < '2026-09-21'$$)) v(w);
-- built from a stable expression (as from now()): pruned when the
-- executor starts
SELECT partitions_scanned($$SELECT count(*) FROM forms_part
                            WHERE uuid_v7_to_timestamptz(id) >= '2026-11-20 12:00+00'::timestamptz + (now() - now()) - interval '1 hour'
                              AND uuid_v7_to_timestamptz(id) < '2026-11-20 12:00+00'::timestamptz + (now() - now())$$)
       AS hour_before_noon;

-- 5. A constraint dropped under a prepared statement: planned again, the
-- form is left as written.
PREPARE decl_count AS SELECT count(*) FROM forms_67 WHERE uuid_timestamp(id) >= '2026-11-20';
SET plan_cache_mode = force_generic_plan;
SELECT plan_shape('EXECUTE decl_count') AS declared;
ALTER TABLE forms_67 DROP CONSTRAINT forms_67_id_check;
SELECT plan_shape('EXECUTE decl_count') AS dropped;
RESET plan_cache_mode;

-- 6. A NO INHERIT constraint declares nothing of the children a query of
-- the table reads, nor does it on a child: the parent's v7 constraint is
-- not the children's, whose v6, v1 and v4 keys count as the functions say.
CREATE TABLE forms_parent (id uuid,
  CONSTRAINT only_parent CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2) NO INHERIT);
CREATE TABLE forms_child () INHERITS (forms_parent);
INSERT INTO forms_parent VALUES (uuid_timestamptz_to_v7('2026-11-20 10:00+00'));
INSERT INTO forms_child VALUES (v6_at('2026-11-20 10:00+00')), (uuid_v6_to_v1(v6_at('2026-11-20 11:00+00'))),
  ('00000000-0000-4000-8000-000000000000');
SELECT (SELECT count(*) FROM forms_parent WHERE id <@ tstzrange('2026-11-20', NULL)) AS contained,
       (SELECT count(*) FROM forms_parent WHERE uuid_timestamp(id) >= '2026-11-20') AS "uuid_timestamp",
       defined_rows('forms_parent', $$uuid_timestamp(id) >= '2026-11-20'$$) AS as_defined,
       (SELECT uuid_timestamp(id) FROM forms_parent ORDER BY uuid_timestamp(id) LIMIT 1) AS first_time,
       (SELECT uuid_timestamp(id) FROM ONLY forms_parent ORDER BY uuid_timestamp(id) LIMIT 1) AS parent_only;
SELECT plan_shape($$SELECT * FROM forms_parent WHERE uuid_timestamp(id) >= '2026-11-20'$$) AS parent;

-- Nor does a domain's CHECK: the column of a domain declared v7 is read as
-- one that declares nothing.
CREATE DOMAIN forms_v7_key AS uuid CHECK (uuid_version(VALUE) = 7 AND uuid_variant(VALUE) = 2);
CREATE TABLE forms_domain (id forms_v7_key PRIMARY KEY);
INSERT INTO forms_domain SELECT id FROM forms_v7;
VACUUM ANALYZE forms_domain;
SELECT plan_shape($$SELECT count(*) FROM forms_domain WHERE uuid_timestamp(id) >= '2026-11-20'$$) AS domain_column,
       rows_of($$SELECT 1 FROM forms_domain WHERE uuid_timestamp(id) >= '2026-11-20'$$)
         = defined_rows('forms_domain', $$uuid_timestamp(id) >= '2026-11-20'$$) AS same_count;

-- 7. A form compared with another table's time: an equality stays a join
-- condition as written (a hash or merge join, which a FULL JOIN needs); a
-- window from the other table becomes the key's index condition.
CREATE TABLE forms_times (t timestamptz);
INSERT INTO forms_times VALUES ('2026-11-20 10:00+00'), ('2026-11-20 10:01+00'), (NULL);
SELECT count(*) AS full_join, count(f.id) AS matched
FROM forms_decl f FULL JOIN forms_times w ON uuid_v7_to_timestamptz(f.id) = w.t;
SELECT count(*) AS joined FROM forms_decl f JOIN forms_times w ON uuid_timestamp(f.id) = w.t;
SELECT count(*) AS windows
FROM forms_times w JOIN forms_decl f ON uuid_timestamp(f.id) >= w.t AND uuid_timestamp(f.id) < w.t + interval '1 hour';
WITH f AS MATERIALIZED (SELECT uuid_timestamp(id) AS t FROM forms_decl)
SELECT count(*) AS windows_as_defined
FROM forms_times w JOIN f ON f.t >= w.t AND f.t < w.t + interval '1 hour';

-- 8. An index on the form itself answers the form as written; another
-- function's index changes nothing.
CREATE TABLE forms_indexed (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2));
INSERT INTO forms_indexed SELECT id FROM forms_decl;
CREATE INDEX forms_indexed_v7 ON forms_indexed (uuid_v7_to_timestamptz(id));
VACUUM ANALYZE forms_indexed;
EXPLAIN (COSTS OFF) SELECT * FROM forms_indexed WHERE uuid_v7_to_timestamptz(id) >= '2026-11-20';
SELECT plan_shape($$SELECT * FROM forms_indexed WHERE uuid_timestamp(id) >= '2026-11-20'$$) AS other_form,
       rows_of($$SELECT * FROM forms_indexed WHERE uuid_v7_to_timestamptz(id) >= '2026-11-20'$$) AS indexed_rows,
       rows_of($$SELECT * FROM forms_indexed WHERE uuid_timestamp(id) >= '2026-11-20'$$) AS other_rows;
EXPLAIN (COSTS OFF) SELECT * FROM forms_indexed ORDER BY uuid_v7_to_timestamptz(id) DESC LIMIT 3;
DROP INDEX forms_indexed_v7;
SELECT plan_shape($$SELECT * FROM forms_indexed WHERE uuid_v7_to_timestamptz(id) >= '2026-11-20'$$) AS index_dropped;

-- 9. A window given as two comparisons (BETWEEN, or >= and <) of times
-- fixed for the scan, constants or computed, is one window to the
-- planner: its estimate is the window's, not the product of two half-open
-- ones.  Constant times that cross stay two comparisons; computed ones
-- make a window of no time.  Either way they hold no row and raise no
-- error.
SELECT t AS "table", f AS form,
       estimate_ratio(format($$SELECT * FROM %I WHERE %s(id) BETWEEN '2026-11-01' AND '2026-11-02'$$, t, f))
         BETWEEN 0.5 AND 2 AS between_within_2x,
       estimate_ratio(format($$SELECT * FROM %I WHERE %s(id) >= '2026-11-01' AND id IS NOT NULL
                              AND %2$s(id) < '2026-11-01 01:00'$$, t, f))
         BETWEEN 0.5 AND 2 AS hour_within_2x,
       estimate_ratio(format($$SELECT * FROM %I WHERE %s(id) >= '2026-11-01'
                              AND %2$s(id) < '2026-11-01 01:00'::timestamptz + (now() - now())$$, t, f))
         BETWEEN 0.5 AND 2 AS computed_within_2x
FROM (VALUES ('forms_decl', 'uuid_timestamp'), ('forms_v7', 'uuid_v7_to_timestamptz')) v(t, f);
SELECT rows_of($$SELECT * FROM forms_decl WHERE uuid_timestamp(id) >= '2026-11-02' AND uuid_timestamp(id) < '2026-11-01'$$) AS crossed,
       rows_of($$SELECT * FROM forms_decl WHERE uuid_timestamp(id) > '2026-11-01' AND uuid_timestamp(id) < '2026-11-01'$$) AS empty,
       rows_of($$SELECT * FROM forms_decl WHERE uuid_timestamp(id) BETWEEN '2026-11-01 00:03' AND '2026-11-01 00:03'$$) AS one_key,
       rows_of($$SELECT * FROM forms_decl WHERE uuid_timestamp(id) BETWEEN '2026-11-02'::timestamptz + (now() - now())
                                                                        AND '2026-11-01'::timestamptz + (now() - now())$$)
         AS computed_crossed,
       rows_of($$SELECT * FROM forms_v7 WHERE uuid_v7_to_timestamptz(id) >= '2026-11-02'::timestamptz + (now() - now())
                                          AND uuid_v7_to_timestamptz(id) < '2026-11-01'::timestamptz + (now() - now())$$)
         AS computed_crossed_any,
       rows_of($$SELECT * FROM forms_decl WHERE uuid_timestamp(id) BETWEEN '2026-11-01 00:03'::timestamptz + (now() - now())
                                                                        AND '2026-11-01 00:03'::timestamptz + (now() - now())$$)
         AS computed_one_key;
EXPLAIN (COSTS OFF) SELECT * FROM forms_decl WHERE uuid_timestamp(id) BETWEEN '2026-11-01' AND '2026-11-02';
EXPLAIN (COSTS OFF) SELECT * FROM forms_decl WHERE uuid_timestamp(id) >= '2026-11-02' AND uuid_timestamp(id) < '2026-11-01';


-- 8. Where PostgreSQL has a plan for the form as written, it keeps it.
-- A table partitioned by the form: pruned at planning for constants, when
-- the executor starts for now(); uuid_timestamp(id) on a column declared
-- v7 too.
CREATE TABLE forms_tpart (id uuid NOT NULL) PARTITION BY RANGE (uuid_v7_to_timestamptz(id));
CREATE TABLE forms_tpart_09 PARTITION OF forms_tpart FOR VALUES FROM ('2026-09-01+00') TO ('2026-10-01+00');
CREATE TABLE forms_tpart_10 PARTITION OF forms_tpart FOR VALUES FROM ('2026-10-01+00') TO ('2026-11-01+00');
CREATE TABLE forms_tpart_11 PARTITION OF forms_tpart FOR VALUES FROM ('2026-11-01+00') TO ('2026-12-01+00');
INSERT INTO forms_tpart SELECT id FROM forms_v7;
CREATE TABLE forms_tpdecl (id uuid NOT NULL CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2))
  PARTITION BY RANGE (uuid_timestamp(id));
CREATE TABLE forms_tpdecl_10 PARTITION OF forms_tpdecl FOR VALUES FROM ('2026-10-01+00') TO ('2026-11-01+00');
CREATE TABLE forms_tpdecl_default PARTITION OF forms_tpdecl DEFAULT;
INSERT INTO forms_tpdecl SELECT id FROM forms_v7;
VACUUM ANALYZE forms_tpart, forms_tpdecl;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM forms_tpart WHERE uuid_v7_to_timestamptz(id) >= '2026-10-10' AND uuid_v7_to_timestamptz(id) < '2026-10-11';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM forms_tpart WHERE uuid_v7_to_timestamptz(id) >= now() - interval '1 day';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM forms_tpdecl WHERE uuid_timestamp(id) BETWEEN '2026-10-10' AND '2026-10-11';
SELECT rows_of($$SELECT * FROM forms_tpart WHERE uuid_v7_to_timestamptz(id) >= '2026-10-10' AND uuid_v7_to_timestamptz(id) < '2026-10-11'$$)
         AS tpart,
       rows_of($$SELECT * FROM forms_tpdecl WHERE uuid_timestamp(id) BETWEEN '2026-10-10' AND '2026-10-11'$$) AS tpdecl,
       defined_rows('forms_v7', $$uuid_v7_to_timestamptz(id) >= '2026-10-10' AND uuid_v7_to_timestamptz(id) < '2026-10-11'$$)
         AS tpart_defined,
       defined_rows('forms_v7', $$uuid_timestamp(id) BETWEEN '2026-10-10' AND '2026-10-11'$$) AS tpdecl_defined;
-- A partial index whose predicate is a form's comparison: conditions that
-- prove it keep the form, and the index; others are rewritten.
CREATE TABLE forms_recent (id uuid NOT NULL CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2));
INSERT INTO forms_recent SELECT id FROM forms_v7;
CREATE INDEX forms_recent_nov ON forms_recent (id) WHERE uuid_timestamp(id) >= '2026-11-01';
VACUUM ANALYZE forms_recent;
EXPLAIN (COSTS OFF)
SELECT id FROM forms_recent WHERE uuid_timestamp(id) >= '2026-11-20' ORDER BY id DESC LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM forms_recent WHERE uuid_timestamp(id) BETWEEN '2026-11-10' AND '2026-11-11';
SELECT plan_shape($$SELECT id FROM forms_recent WHERE uuid_timestamp(id) >= '2026-10-20' ORDER BY id DESC LIMIT 10$$)
         AS not_proved,
       plan_shape($$SELECT id FROM forms_recent WHERE uuid_timestamp(id) >= greatest('2026-11-20'::timestamptz, '2026-10-20')
                    ORDER BY id DESC LIMIT 10$$) AS proved_once_folded;
-- ORDER BY the form DESC, id DESC (the key breaking ties, as ORMs add
-- it), on a declared column: the key's index, backwards, no sort; the
-- newest rows as the definition orders them.
EXPLAIN (COSTS OFF)
SELECT id FROM forms_decl WHERE uuid_timestamp(id) >= '2026-11-01' ORDER BY uuid_timestamp(id) DESC, id DESC LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT id FROM forms_decl ORDER BY uuid_timestamp(id) DESC NULLS LAST, id DESC LIMIT 10;
SELECT array_agg(id) = (SELECT array_agg(id) FROM (SELECT id FROM (SELECT id, uuid_timestamp(id) AS t FROM forms_decl OFFSET 0) d
                                                   ORDER BY t DESC, id DESC LIMIT 10) d) AS newest_in_order
FROM (SELECT id FROM forms_decl ORDER BY uuid_timestamp(id) DESC, id DESC LIMIT 10) s;
-- On a column that declares nothing, with a comparison in WHERE of a
-- form that reads v7 keys only (NULL, so the row rejected, for any other
-- key): the rows left are v7 keys, whose time order is their key order, so
-- the key's index, backwards, no sort (before 1.6: a sort of the window);
-- the newest rows as the definition orders them, on a column of every
-- kind of UUID too (which sorts its few rows).  With uuid_timestamp(),
-- which reads v1 and v6 keys too, the rows are sorted.
EXPLAIN (COSTS OFF)
SELECT id FROM forms_v7 WHERE uuid_v7_to_timestamptz(id) >= '2026-11-01' ORDER BY uuid_v7_to_timestamptz(id) DESC, id DESC LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT id FROM forms_v7 WHERE uuid_v7_to_timestamptz(id) >= '2026-11-01' ORDER BY uuid_v7_to_timestamptz(id) DESC LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT id FROM forms_v7 WHERE uuid_timestamp(id) >= '2026-11-01' ORDER BY uuid_timestamp(id) DESC LIMIT 10;
SELECT array_agg(id) = (SELECT array_agg(id) FROM (SELECT id FROM (SELECT id, uuid_v7_to_timestamptz(id) AS t FROM forms_any OFFSET 0) d
                                                   WHERE t >= '2026-11-01' ORDER BY t DESC, id DESC LIMIT 10) d) AS newest_in_order,
       count(*) AS newest
FROM (SELECT id FROM forms_any WHERE uuid_v7_to_timestamptz(id) >= '2026-11-01'
      ORDER BY uuid_v7_to_timestamptz(id) DESC, id DESC LIMIT 10) s;
-- A keyset page as a row comparison on a column that declares nothing:
-- the key's comparison it implies bounds the scan's index walk.
CREATE TABLE forms_page (id uuid PRIMARY KEY, payload int);
INSERT INTO forms_page SELECT id, 1 FROM forms_v7;
VACUUM ANALYZE forms_page;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT id FROM forms_page WHERE uuid_v7_to_timestamptz(id) >= '2026-10-01'
  AND (id, payload) < (uuid_v7_lower_bound('2026-10-05+00'), 0) ORDER BY id DESC LIMIT 10;
RESET enable_seqscan;
SELECT array_agg(id) = (SELECT array_agg(id) FROM (SELECT id FROM (SELECT * FROM forms_page OFFSET 0) d
                                                   WHERE uuid_version(id) = 7 AND uuid_timestamp(id) >= '2026-10-01'
                                                     AND (id, payload) < (uuid_v7_lower_bound('2026-10-05+00'), 0)
                                                   ORDER BY id DESC LIMIT 10) d) AS page_as_defined
FROM (SELECT id FROM forms_page WHERE uuid_v7_to_timestamptz(id) >= '2026-10-01'
        AND (id, payload) < (uuid_v7_lower_bound('2026-10-05+00'), 0) ORDER BY id DESC LIMIT 10) s;
-- Estimates count the keys of the window's versions: uuidx's v8 keys begin
-- with the millisecond, as v7 keys do, and none is in a time window.
CREATE TABLE forms_v8 (id uuid PRIMARY KEY);
INSERT INTO forms_v8 SELECT uuid_generate_v8() FROM generate_series(1, 3000);
CREATE TABLE forms_78 (id uuid PRIMARY KEY);
INSERT INTO forms_78
  SELECT uuid_timestamptz_to_v7('2026-09-20 00:00+00'::timestamptz + g * interval '3 minutes', true) FROM generate_series(0, 29999) g
  UNION ALL
  SELECT uuid_v8_from_parts((extract(epoch FROM '2026-09-20 00:00+00'::timestamptz + g * interval '3 minutes') * 1000)::bigint, g % 4096, g)
  FROM generate_series(0, 29999) g;
VACUUM ANALYZE forms_v8, forms_78;
-- (no row matches: the ratio is the estimate itself)
SELECT estimate_ratio($$SELECT * FROM forms_v8 WHERE id <@ tstzrange(now() - interval '1 hour', now())$$) <= 3 AS v8_few,
       estimate_ratio($$SELECT * FROM forms_78 WHERE id <@ '[2026-10-01+00, 2026-10-03+00)'::tstzrange$$) BETWEEN 0.5 AND 2
         AS mixed_within_2x,
       estimate_ratio($$SELECT * FROM forms_78 WHERE uuid_v7_to_timestamptz(id) >= '2026-11-01'$$) BETWEEN 0.5 AND 2
         AS form_within_2x;
-- the data's last day, whatever sample ANALYZE takes (the histogram's last
-- bounds may all be v8 keys)
CREATE TEMP TABLE forms_78_estimates AS SELECT 0.0::float8 AS ratio WHERE false;
DO $$
BEGIN
  FOR i IN 1 .. 8 LOOP
    ANALYZE forms_78;
    INSERT INTO forms_78_estimates
      SELECT estimate_ratio($q$SELECT * FROM forms_78 WHERE id <@ '[2026-11-20+00, 2026-11-21+00)'::tstzrange$q$);
  END LOOP;
END $$;
SELECT count(*) AS analyzes, bool_and(ratio BETWEEN 0.5 AND 2) AS last_day_within_2x FROM forms_78_estimates;
-- The pieces the plans show, written by hand, give what they give row by
-- row, whatever the plan: NULL (no row) for parts that cross or flags the
-- range constructor refuses, not the constructor's error.
SET enable_seqscan = off;
SELECT rows_of($$SELECT * FROM forms_v7 WHERE uuidx_time_between(id, now(), now() - interval '1 day', '[)', 7, false)$$) AS crossed,
       rows_of($$SELECT * FROM forms_v7 WHERE uuidx_time_compared(id, now() - interval '1 day', now(), 'xx', 7, false)$$) AS bad_flags,
       rows_of($$SELECT * FROM forms_v7 WHERE uuidx_time_between(id, '2026-10-02', '2026-10-01', '[)', 7, false)$$) AS crossed_constants,
       rows_of($$SELECT * FROM forms_v7 WHERE uuidx_time_between(id, '2026-10-01', '2026-10-02', '[)', 7, false)$$) AS one_day;
-- (uuidx_time_bound, the bound of a range the query builds, refuses what
-- the range constructor refuses, in its words)
SELECT uuidx_time_bound(now(), now() - interval '1 day', '[)', 7, false) AS crossed_lower;
SELECT uuidx_time_bound('2026-10-01', '2026-10-02', '((', 7, true) AS bad_flags_upper;
-- in a view, too (its calls are read back from the catalog)
CREATE VIEW forms_by_hand AS
  SELECT * FROM forms_v7 WHERE uuidx_time_between(id, now(), now() - interval '1 day', '[)', 7, false);
SELECT count(*) AS crossed_in_view FROM forms_by_hand;
DROP VIEW forms_by_hand;
-- a range the query builds still raises the constructor's error
SELECT rows_of($$SELECT * FROM forms_v7 WHERE id <@ tstzrange(now(), now() - interval '1 day')$$);
RESET enable_seqscan;
DROP TABLE forms_tpart, forms_tpdecl, forms_recent, forms_page, forms_v8, forms_78;
DROP TABLE forms_v7, forms_decl, forms_67, forms_any, forms_part, forms_parent, forms_child, forms_times,
  forms_indexed, forms_domain;
DROP DOMAIN forms_v7_key;
