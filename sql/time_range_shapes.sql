-- id <@ tstzrange in the query shapes users write most: newest or oldest
-- rows first with LIMIT, a count on a column declared to hold one version,
-- rows newer than the last ANALYZE, row-level security, joins, and indexes
-- of every operator class.  The tables hold at most 30,000 rows, which
-- ANALYZE reads whole, so the statistics and the plans are the same on
-- every run.

SET TimeZone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/helpers.sql'
\i :include



-- The ids a query returns, and those the definition gives, in order.
CREATE OR REPLACE FUNCTION same_ids(query text, definition text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  got uuid[];
  expected uuid[];
BEGIN
  EXECUTE 'SELECT array_agg(id) FROM (' || query || ') q' INTO got;
  EXECUTE 'SELECT array_agg(id) FROM (' || definition || ') q' INTO expected;
  RETURN got IS NOT DISTINCT FROM expected AND cardinality(got) > 0;
END $$;

-- 30,000 v7 keys, one every three minutes from 2026-09-20 to 2026-11-21.
CREATE TABLE keys7 (id uuid PRIMARY KEY, payload int);
INSERT INTO keys7
  SELECT uuid_timestamptz_to_v7('2026-09-20 00:00+00'::timestamptz + g * interval '3 minutes', true), g
  FROM generate_series(0, 29999) g;
VACUUM ANALYZE keys7;

-- 1. ORDER BY id LIMIT over a window.  The arms of id <@ r are ORed, which
-- only a bitmap scan can use; beside them stands one range over both
-- versions' keys of r, which an index scan walks in key order.  The
-- planner walks where the walk meets r at once, and sorts the bitmap
-- scans' rows where it would first read many other keys: here, newest
-- first on a day forty days back, the walk would come down through every
-- v7 key after that day.
EXPLAIN (COSTS OFF)
SELECT * FROM keys7 WHERE id <@ '[2026-10-20, 2026-10-21)'::tstzrange ORDER BY id LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT * FROM keys7 WHERE id <@ '[2026-10-20, 2026-10-21)'::tstzrange ORDER BY id DESC LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT * FROM keys7 WHERE id <@ '[2026-11-20, 2026-11-21)'::tstzrange ORDER BY id DESC LIMIT 10;
-- The same rows as the definition, in order, for a constant range and for
-- one the query builds from stable parts (as from now()).
CREATE OR REPLACE FUNCTION range_sql(w text, built boolean) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN NOT built THEN quote_literal(w) || '::tstzrange'
         ELSE format('tstzrange(lower(%1$L::tstzrange) + (now() - now()), upper(%1$L::tstzrange) + (now() - now()), %2$L)',
                     w, CASE WHEN lower_inc(w::tstzrange) THEN '[' ELSE '(' END || CASE WHEN upper_inc(w::tstzrange) THEN ']' ELSE ')' END)
         END
$$;
SELECT d AS direction, w AS window, built,
       same_ids(format('SELECT id FROM keys7 WHERE id <@ %s ORDER BY id %s LIMIT 10', range_sql(w, built), d),
                format('SELECT id FROM keys7 WHERE uuid_version(id) = 7 AND %L::tstzrange @> uuid_timestamp(id) ORDER BY id %s LIMIT 10', w, d)) AS same_rows
FROM (VALUES ('ASC'), ('DESC')) a(d),
     (VALUES ('[2026-10-20, 2026-10-21)'), ('[2026-11-20, 2026-11-21)'), ('[2026-09-20 01:00, 2026-09-20 02:00]')) b(w),
     (VALUES (false), (true)) c(built)
ORDER BY 1, 2, 3;

-- 2. A column declared to hold v7 keys only.  CHECK (uuid_version(id) = 7)
-- rules out v6 keys: one index range, and each row checked, since a CHECK
-- lets through a UUID whose version is NULL (another variant).  With
-- uuid_variant(id) = 2 as well, every key is a v7: the index range is the
-- answer, and a count is an index-only scan, as with hand-written bounds.
CREATE TABLE keys7_declared (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7), payload int);
INSERT INTO keys7_declared SELECT * FROM keys7;
VACUUM ANALYZE keys7_declared;
EXPLAIN (COSTS OFF)
SELECT * FROM keys7_declared WHERE id <@ '[2026-10-20, 2026-10-21)'::tstzrange ORDER BY id DESC LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM keys7_declared WHERE id <@ '[2026-10-20, 2026-10-21)'::tstzrange;
ALTER TABLE keys7_declared ADD CHECK (uuid_variant(id) = 2);
EXPLAIN (COSTS OFF)
SELECT count(*) FROM keys7_declared WHERE id <@ '[2026-10-20, 2026-10-21)'::tstzrange;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM keys7_declared WHERE id <@ tstzrange(now() - interval '40 days', now() - interval '39 days');
SELECT count(*) AS one_day FROM keys7_declared WHERE id <@ '[2026-10-20, 2026-10-21)'::tstzrange;
-- A NOT VALID constraint proves nothing, and a prepared statement is
-- planned again when a constraint goes.
CREATE TABLE keys7_unproved (id uuid PRIMARY KEY);
INSERT INTO keys7_unproved SELECT id FROM keys7;
INSERT INTO keys7_unproved VALUES (v6_at('2026-10-20 12:00+00'));
ALTER TABLE keys7_unproved ADD CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2) NOT VALID;
VACUUM ANALYZE keys7_unproved;
SELECT count(*) AS with_the_v6 FROM keys7_unproved WHERE id <@ '[2026-10-20, 2026-10-21)'::tstzrange;
PREPARE declared_count(tstzrange) AS SELECT count(*) FROM keys7_declared WHERE id <@ $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE declared_count('[2026-10-20, 2026-10-21)');
ALTER TABLE keys7_declared DROP CONSTRAINT keys7_declared_id_check, DROP CONSTRAINT keys7_declared_id_check1;
INSERT INTO keys7_declared VALUES (v6_at('2026-10-20 12:00+00'), 0);
EXPLAIN (COSTS OFF) EXECUTE declared_count('[2026-10-20, 2026-10-21)');
EXECUTE declared_count('[2026-10-20, 2026-10-21)');
RESET plan_cache_mode;
-- A column 40% NULL: the scan's children are estimated at the window's
-- rows, not at those and the NULLs, so that the scan wins over reading the
-- table.  (A key every six minutes: 120 in twelve hours.)
CREATE TABLE keys7_nullable (id uuid, payload int);
INSERT INTO keys7_nullable SELECT * FROM keys7 WHERE payload % 2 = 0;
INSERT INTO keys7_nullable SELECT NULL, g FROM generate_series(1, 10000) g;
CREATE INDEX ON keys7_nullable (id);
VACUUM ANALYZE keys7_nullable;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM keys7_nullable WHERE id <@ '[2026-11-01 00:00, 2026-11-01 12:00)'::tstzrange;
SELECT count(*) AS in_12_hours FROM keys7_nullable WHERE id <@ '[2026-11-01 00:00, 2026-11-01 12:00)'::tstzrange;

-- 3. A column that also holds v6 keys: 20,000 converted from v1 in
-- September, then 10,000 v7 keys.  The scan walks the day's v7 keys and
-- its v6 keys, merged, newest or oldest first, and reads nothing else.
CREATE TABLE keys_mixed (id uuid PRIMARY KEY);
INSERT INTO keys_mixed SELECT v6_at('2026-09-01 00:00+00'::timestamptz + g * interval '1 minute') FROM generate_series(1, 20000) g;
INSERT INTO keys_mixed SELECT uuid_timestamptz_to_v7('2026-11-01 00:00+00'::timestamptz + g * interval '2 minutes', true) FROM generate_series(1, 10000) g;
VACUUM ANALYZE keys_mixed;
EXPLAIN (COSTS OFF)
SELECT * FROM keys_mixed WHERE id <@ '[2026-11-13, 2026-11-14)'::tstzrange ORDER BY id DESC LIMIT 10;
EXPLAIN (COSTS OFF)
SELECT * FROM keys_mixed WHERE id <@ '[2026-11-13, 2026-11-14)'::tstzrange ORDER BY id LIMIT 10;
SELECT d AS direction, w AS window, built,
       same_ids(format('SELECT id FROM keys_mixed WHERE id <@ %s ORDER BY id %s LIMIT 10', range_sql(w, built), d),
                format('SELECT id FROM keys_mixed WHERE uuid_version(id) IN (6, 7) AND %L::tstzrange @> uuid_timestamp(id) ORDER BY id %s LIMIT 10', w, d)) AS same_rows
FROM (VALUES ('ASC'), ('DESC')) a(d),
     (VALUES ('[2026-11-13, 2026-11-14)'), ('[2026-09-10, 2026-11-02)')) b(w),
     (VALUES (false), (true)) c(built)
ORDER BY 1, 2, 3;
-- The rows the plan's scans of the table read (returned or filtered
-- out) for a count and for the newest 10.  A window open towards the
-- future reads every v6 key, whatever the plan: they sort after today's v7
-- keys, inside the v7 key range of the centuries ahead (the README's one
-- known slow shape).  Closed, only the window's keys.
CREATE FUNCTION rows_read(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  plan jsonb;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query INTO plan;
  RETURN (SELECT sum((n->>'Actual Rows')::numeric + coalesce((n->>'Rows Removed by Filter')::numeric, 0))
          FROM jsonb_path_query(plan, 'strict $.** ? (@."Node Type" like_regex "Scan$" && @."Node Type" != "Custom Scan")') n);
END $$;
SELECT w AS window,
       rows_read(format('SELECT count(*) FROM keys_mixed WHERE id <@ %L::tstzrange', w)) AS count_reads,
       rows_read(format('SELECT * FROM keys_mixed WHERE id <@ %L::tstzrange ORDER BY id DESC LIMIT 10', w)) AS newest_10_reads,
       (SELECT count(*) FROM keys_mixed WHERE w::tstzrange @> uuid_timestamp(id)) AS rows
FROM (VALUES ('[2026-11-13,)'), ('[2026-11-13, 2026-11-14)')) v(w);

-- 4. Rows newer than the last ANALYZE lie past the histogram's last bound:
-- they are estimated from the newest key in the index, at the rate of the
-- histogram's last bin.  29,400 keys over 60 days, analyzed, then 600 over
-- the following day (2% more).
CREATE TABLE keys_growing (id uuid PRIMARY KEY);
INSERT INTO keys_growing
  SELECT uuid_timestamptz_to_v7('2026-09-21 00:00+00'::timestamptz + g * interval '60 days' / 29400, true)
  FROM generate_series(0, 29399) g;
VACUUM ANALYZE keys_growing;
INSERT INTO keys_growing
  SELECT uuid_timestamptz_to_v7('2026-11-20 00:00+00'::timestamptz + g * interval '1 day' / 600, true)
  FROM generate_series(1, 600) g;
SELECT w AS window,
       estimate_ratio(format('SELECT * FROM keys_growing WHERE id <@ tstzrange(%L::timestamptz - %L::interval, %L)',
                             '2026-11-21 00:00+00', w, '2026-11-21 00:00+00')) BETWEEN 0.5 AND 2 AS within_2x
FROM (VALUES ('1 hour'), ('1 day')) v(w);

-- 5. A table that has just begun to take v7 keys: one or two histogram
-- bounds are v7 keys among v4 ones.  No worse than PostgreSQL's estimate
-- of hand-written bounds.
CREATE TABLE keys_switching (id uuid PRIMARY KEY);
INSERT INTO keys_switching
  SELECT overlay(md5(g::text)::uuid::text PLACING '4' FROM 15 FOR 1)::uuid FROM generate_series(1, 29000) g;
INSERT INTO keys_switching
  SELECT uuid_timestamptz_to_v7('2026-11-20 00:00+00'::timestamptz + g * interval '2 minutes', true) FROM generate_series(1, 1000) g;
VACUUM ANALYZE keys_switching;
SELECT w AS window,
       abs(ln(estimate_ratio(format('SELECT * FROM keys_switching WHERE id <@ %L::tstzrange', w))))
         <= abs(ln(estimate_ratio(format('SELECT * FROM keys_switching WHERE id >= uuid_v7_lower_bound(lower(%L::tstzrange)) AND id < uuid_v7_lower_bound(upper(%L::tstzrange))', w, w))))
         AS no_worse_than_bounds
FROM (VALUES ('[2026-11-20 02:00+00, 2026-11-20 03:00+00)'), ('[2026-11-20 00:00+00, 2026-11-21 00:00+00)'),
             ('[2026-11-21 09:00+00, 2026-11-21 10:00+00)')) v(w);

-- 6. Joins: 10 one-hour windows against the keys, from the windows'
-- statistics (a tstzrange column, or the timestamps a range is built
-- from).  Within 10x of the true count.
CREATE TABLE windows (w tstzrange, a timestamptz, b timestamptz);
INSERT INTO windows
  SELECT tstzrange(t, t + interval '1 hour'), t, t + interval '1 hour'
  FROM generate_series('2026-10-05 00:00+00'::timestamptz, '2026-10-14 00:00+00', interval '1 day') t;
ANALYZE windows;
SELECT q AS "join",
       estimate_ratio(q) BETWEEN 0.1 AND 10 AS within_10x
FROM (VALUES ('SELECT * FROM windows JOIN keys7 ON keys7.id <@ windows.w'),
             ('SELECT * FROM windows JOIN keys7 ON keys7.id <@ tstzrange(windows.a, windows.b)')) v(q);

-- 7. Row-level security and security_barrier views.  Every clause of
-- id <@ r is LEAKPROOF, so the planner may use it before the policy's
-- own: the index serves a role under a policy, also for a range built
-- from now().  The range is still checked as the constructor checks it.
CREATE ROLE regress_uuidx_tenant;
CREATE TABLE docs (id uuid PRIMARY KEY, owner text);
INSERT INTO docs
  SELECT id, CASE WHEN payload % 50 = 0 THEN 'regress_uuidx_tenant' ELSE 'someone else' END FROM keys7;
ALTER TABLE docs ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_docs ON docs USING (owner = current_user);
GRANT SELECT ON docs TO regress_uuidx_tenant;
CREATE VIEW my_docs WITH (security_barrier) AS SELECT * FROM docs WHERE owner = 'regress_uuidx_tenant';
GRANT SELECT ON my_docs TO regress_uuidx_tenant;
VACUUM ANALYZE docs;
SET ROLE regress_uuidx_tenant;
EXPLAIN (COSTS OFF)
SELECT * FROM docs WHERE id <@ tstzrange('2026-11-20 00:00+00'::timestamptz + (now() - now()), '2026-11-20 06:00+00'::timestamptz + (now() - now()));
SELECT count(*) AS mine FROM docs WHERE id <@ tstzrange('2026-11-20 00:00+00'::timestamptz + (now() - now()), '2026-11-20 06:00+00'::timestamptz + (now() - now()));
SELECT count(*) AS mine_by_definition FROM docs WHERE '[2026-11-20 00:00+00, 2026-11-20 06:00+00)'::tstzrange @> uuid_timestamp(id);
SELECT count(*) FROM docs WHERE id <@ tstzrange(now(), now() - interval '1 hour');
EXPLAIN (COSTS OFF)
SELECT * FROM my_docs WHERE id <@ '[2026-11-20 00:00+00, 2026-11-20 06:00+00)'::tstzrange;
EXPLAIN (COSTS OFF)
SELECT * FROM my_docs WHERE id <@ tstzrange('2026-11-20 00:00+00'::timestamptz + (now() - now()), '2026-11-20 06:00+00'::timestamptz + (now() - now()));
SELECT count(*) AS mine_in_view FROM my_docs WHERE id <@ tstzrange('2026-11-20 00:00+00'::timestamptz + (now() - now()), '2026-11-20 06:00+00'::timestamptz + (now() - now()));
SELECT count(*) FROM my_docs WHERE id <@ tstzrange(now(), now() - interval '1 hour');
RESET ROLE;
DROP VIEW my_docs;
DROP TABLE docs;
DROP ROLE regress_uuidx_tenant;

-- 8. Operator classes.  Index conditions come only from an operator family
-- that holds uuid's own >= and <=: they mean the same in any such family,
-- whatever its strategy numbers.  A reversed B-tree class and a reversed
-- BRIN minmax class built from uuid's operators, BRIN minmax-multi,
-- btree_gist's GiST class, and a class with operators of its own (which
-- gets no conditions) all give the definition's rows.
CREATE EXTENSION btree_gist;
CREATE FUNCTION uuid_cmp_rev(a uuid, b uuid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT uuid_cmp(b, a) $$;
CREATE OPERATOR CLASS uuid_rev_ops FOR TYPE uuid USING btree AS
  OPERATOR 1 >, OPERATOR 2 >=, OPERATOR 3 =, OPERATOR 4 <=, OPERATOR 5 <,
  FUNCTION 1 uuid_cmp_rev(uuid, uuid);
CREATE OPERATOR CLASS uuid_rev_minmax_ops FOR TYPE uuid USING brin AS
  OPERATOR 1 >, OPERATOR 2 >=, OPERATOR 3 =, OPERATOR 4 <=, OPERATOR 5 <,
  FUNCTION 1 brin_minmax_opcinfo(internal),
  FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
  FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
  FUNCTION 4 brin_minmax_union(internal, internal, internal);
CREATE FUNCTION rev_lt(uuid, uuid) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS 'SELECT $1 > $2';
CREATE FUNCTION rev_le(uuid, uuid) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS 'SELECT $1 >= $2';
CREATE FUNCTION rev_eq(uuid, uuid) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS 'SELECT $1 = $2';
CREATE FUNCTION rev_ge(uuid, uuid) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS 'SELECT $1 <= $2';
CREATE FUNCTION rev_gt(uuid, uuid) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS 'SELECT $1 < $2';
CREATE OPERATOR ~<~ (FUNCTION = rev_lt, LEFTARG = uuid, RIGHTARG = uuid);
CREATE OPERATOR ~<=~ (FUNCTION = rev_le, LEFTARG = uuid, RIGHTARG = uuid);
CREATE OPERATOR ~=~ (FUNCTION = rev_eq, LEFTARG = uuid, RIGHTARG = uuid);
CREATE OPERATOR ~>=~ (FUNCTION = rev_ge, LEFTARG = uuid, RIGHTARG = uuid);
CREATE OPERATOR ~>~ (FUNCTION = rev_gt, LEFTARG = uuid, RIGHTARG = uuid);
CREATE OPERATOR CLASS uuid_own_ops FOR TYPE uuid USING btree AS
  OPERATOR 1 ~<~, OPERATOR 2 ~<=~, OPERATOR 3 ~=~, OPERATOR 4 ~>=~, OPERATOR 5 ~>~,
  FUNCTION 1 uuid_cmp_rev(uuid, uuid);
-- 10,000 v7 keys one minute apart from 2024-01-01, and a v6 key each hour.
CREATE TABLE classed (id uuid);
INSERT INTO classed SELECT uuid_timestamptz_to_v7('2024-01-01 00:00+00'::timestamptz + g * interval '1 minute', true) FROM generate_series(0, 9999) g;
INSERT INTO classed SELECT v6_at('2024-01-01 00:30+00'::timestamptz + g * interval '1 hour') FROM generate_series(0, 160) g;
CREATE TABLE opclasses (name text, index_def text);
INSERT INTO opclasses VALUES
  ('btree reversed', 'USING btree (id uuid_rev_ops)'),
  ('btree, own operators', 'USING btree (id uuid_own_ops)'),
  ('brin minmax reversed', 'USING brin (id uuid_rev_minmax_ops) WITH (pages_per_range = 2)'),
  ('brin minmax-multi', 'USING brin (id uuid_minmax_multi_ops) WITH (pages_per_range = 2)'),
  ('gist (btree_gist)', 'USING gist (id gist_uuid_ops)');
CREATE FUNCTION opclass_check(index_def text, OUT index_conditions boolean, OUT same_count boolean)
LANGUAGE plpgsql AS $$
DECLARE
  plan json;
  got bigint;
  default_count bigint;
BEGIN
  SET LOCAL client_min_messages = warning;
  DROP INDEX IF EXISTS classed_id;
  EXECUTE 'CREATE INDEX classed_id ON classed ' || index_def;
  ANALYZE classed;
  -- the count under the default settings, then with the index forced
  SELECT count(*) INTO default_count FROM classed WHERE id <@ tstzrange('2024-01-02 00:00+00', '2024-01-03 00:00+00');
  SET LOCAL enable_seqscan = off;
  EXECUTE $q$EXPLAIN (COSTS OFF, FORMAT JSON) SELECT count(*) FROM classed WHERE id <@ tstzrange('2024-01-02 00:00+00', '2024-01-03 00:00+00')$q$ INTO plan;
  index_conditions := plan::text LIKE '%Index Cond%';
  SELECT count(*) INTO got FROM classed WHERE id <@ tstzrange('2024-01-02 00:00+00', '2024-01-03 00:00+00');
  same_count := got = default_count AND got = (SELECT count(*) FROM classed WHERE uuid_version(id) IN (6, 7)
                       AND tstzrange('2024-01-02 00:00+00', '2024-01-03 00:00+00') @> uuid_timestamp(id));
  RESET enable_seqscan;
END $$;
SELECT name, c.* FROM opclasses, LATERAL opclass_check(index_def) c ORDER BY name;
SELECT count(*) AS one_day FROM classed WHERE id <@ tstzrange('2024-01-02 00:00+00', '2024-01-03 00:00+00');
