-- min(uuid) and max(uuid): created by uuidx in its schema, with uuid's <
-- and > as sort operators, so that the planner answers them from a B-tree
-- index, and with combine functions for parallel plans.  A schema's own
-- and pg_catalog's are left alone (at the end).  (minmax_1.out: PostgreSQL
-- 19's EXPLAIN names the InitPlan of a min/max aggregate, and says what it
-- replaces.)

-- Whose they are on this server.
SELECT p.oid::regprocedure AS aggregate, n.nspname = 'pg_catalog' AS core,
       a.aggtransfn, a.aggcombinefn, a.aggsortop::regoperator, p.proparallel
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.proname IN ('min', 'max') AND p.proargtypes = '2950'
ORDER BY 1;

-- The same answers as ORDER BY ... LIMIT 1, on a column of every kind of
-- UUID with NULLs, and on an empty table.
CREATE TABLE agg_keys (id uuid);
INSERT INTO agg_keys
  SELECT CASE g % 5 WHEN 0 THEN NULL WHEN 1 THEN gen_random_uuid() WHEN 2 THEN uuid_generate_v6()
                    WHEN 3 THEN uuid_generate_v8() ELSE uuid_generate_v7() END
  FROM generate_series(1, 20000) g;
INSERT INTO agg_keys VALUES ('00000000-0000-0000-0000-000000000000'), ('ffffffff-ffff-ffff-ffff-ffffffffffff');
SELECT min(id) = (SELECT id FROM agg_keys WHERE id IS NOT NULL ORDER BY id LIMIT 1) AS min_is_first,
       max(id) = (SELECT id FROM agg_keys WHERE id IS NOT NULL ORDER BY id DESC LIMIT 1) AS max_is_last,
       min(id) AS smallest, max(id) AS largest
FROM agg_keys;
SELECT min(id) FILTER (WHERE uuid_version(id) = 7) = (SELECT id FROM agg_keys WHERE uuid_version(id) = 7 ORDER BY id LIMIT 1) AS min_v7,
       max(id) FILTER (WHERE uuid_version(id) = 6) = (SELECT id FROM agg_keys WHERE uuid_version(id) = 6 ORDER BY id DESC LIMIT 1) AS max_v6
FROM agg_keys;
CREATE TABLE agg_empty (id uuid);
SELECT min(id), max(id), count(*) FROM agg_empty;
INSERT INTO agg_empty VALUES (NULL), (NULL);
SELECT min(id), max(id), count(*) FROM agg_empty;

-- From a B-tree index: a Limit over an Index Only Scan, backward for max.
-- (The plan without what PostgreSQL 15 and 16 add to an InitPlan's line,
-- "(returns $0)".)
CREATE OR REPLACE FUNCTION plan_of(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    RETURN NEXT regexp_replace(line, ' \(returns [$0-9, ]+\)$', '');
  END LOOP;
END $$;
CREATE INDEX agg_keys_id ON agg_keys (id);
VACUUM ANALYZE agg_keys;
SELECT plan_of('SELECT max(id) FROM agg_keys');
SELECT plan_of('SELECT min(id) FROM agg_keys');
SELECT max(id) = 'ffffffff-ffff-ffff-ffff-ffffffffffff' AS max_from_index,
       min(id) = '00000000-0000-0000-0000-000000000000' AS min_from_index
FROM agg_keys;
-- The newest key of a time range, from the index too.
SELECT plan_of($$SELECT max(id) FROM agg_keys WHERE id <@ tstzrange(now() - interval '1 hour', now() + interval '1 hour')$$);
SELECT max(id) = (SELECT id FROM agg_keys WHERE uuid_version(id) IN (6, 7) AND uuid_timestamp(id) > now() - interval '1 hour'
                  ORDER BY id DESC LIMIT 1) AS newest_in_range
FROM agg_keys WHERE id <@ tstzrange(now() - interval '1 hour', now() + interval '1 hour');

-- In parallel: partial aggregates combined.
DROP INDEX agg_keys_id;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT min(id), max(id) FROM agg_keys;
SELECT min(id) = '00000000-0000-0000-0000-000000000000' AS parallel_min,
       max(id) = 'ffffffff-ffff-ffff-ffff-ffffffffffff' AS parallel_max
FROM agg_keys;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;

-- A schema with min(uuid) and max(uuid) of its own (the polyfill many
-- migrations write): CREATE EXTENSION leaves them as they are, with a
-- WARNING, and creates the rest; the schema's answer.  So does ALTER
-- EXTENSION uuidx UPDATE from 1.1, which took 1.1 -> 1.2 and failed there
-- (42723) before 1.4's direct path.
CREATE DATABASE regress_uuidx_own_minmax;
\c regress_uuidx_own_minmax
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/own_minmax.sql'
\i :include

CREATE EXTENSION uuidx;
SELECT p.oid::regprocedure AS aggregate, a.aggtransfn,
       EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') AS uuidx_member
FROM pg_proc p JOIN pg_aggregate a ON a.aggfnoid = p.oid
WHERE p.proname IN ('min', 'max') AND p.proargtypes = '2950' ORDER BY 1;
SELECT max(id) = 'ffffffff-ffff-ffff-ffff-ffffffffffff' AS own_max
FROM (VALUES (uuid_generate_v7()), ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) v(id);
DROP EXTENSION uuidx;
CREATE EXTENSION uuidx VERSION '1.1';
ALTER EXTENSION uuidx UPDATE;
SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'uuidx') AS updated_to_default
FROM pg_extension WHERE extname = 'uuidx';
SELECT count(*) AS uuidx_aggregates FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidx') AND p.prokind = 'a';
-- The schema's own replaced with uuidx's, as the README shows: a member
-- of the extension (so that a dump does not create it after uuidx), with
-- its sort operator, which the check takes for uuidx's.
DROP AGGREGATE min(uuid);
CREATE AGGREGATE min(uuid) (SFUNC = uuidx_smaller, STYPE = uuid, COMBINEFUNC = uuidx_smaller,
                            SORTOP = <, PARALLEL = SAFE);
ALTER EXTENSION uuidx ADD AGGREGATE min(uuid);
SELECT count(*) AS uuidx_aggregates FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidx') AND p.prokind = 'a';
SELECT * FROM uuidx_check_members();
CREATE TABLE k (id uuid PRIMARY KEY);
INSERT INTO k SELECT uuid_generate_v7() FROM generate_series(1, 1000);
VACUUM ANALYZE k;
CREATE FUNCTION plan_text(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE l text; r text := '';
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP r := r || l || ' '; END LOOP;
  RETURN r;
END $$;
SELECT plan_text('SELECT min(id) FROM k') LIKE '%Index Only Scan using k_pkey%' AS min_from_index;
\c contrib_regression
DROP DATABASE regress_uuidx_own_minmax;

-- A server whose pg_catalog has min(uuid) and max(uuid) (PostgreSQL's
-- development branch added them), stood in for here by aggregates created
-- in pg_catalog before uuidx.  uuidx creates its own in its schema all the
-- same: unqualified calls reach core's, which the search
-- path puts first; a view restored from a dump of a server without core's
-- names uuidx's, public.max(id), and keeps working.
CREATE DATABASE regress_uuidx_core_minmax;
\c regress_uuidx_core_minmax
CREATE FUNCTION pg_catalog.regress_uuid_smaller(uuid, uuid) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT
  AS 'SELECT CASE WHEN $1 <= $2 THEN $1 ELSE $2 END';
CREATE FUNCTION pg_catalog.regress_uuid_larger(uuid, uuid) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT
  AS 'SELECT CASE WHEN $1 >= $2 THEN $1 ELSE $2 END';
CREATE AGGREGATE pg_catalog.min(uuid) (SFUNC = pg_catalog.regress_uuid_smaller, STYPE = uuid, SORTOP = <);
CREATE AGGREGATE pg_catalog.max(uuid) (SFUNC = pg_catalog.regress_uuid_larger, STYPE = uuid, SORTOP = >);

CREATE EXTENSION uuidx;
SELECT p.oid::regprocedure AS aggregate, n.nspname, a.aggtransfn
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_aggregate a ON a.aggfnoid = p.oid
WHERE p.proname IN ('min', 'max') AND p.proargtypes = '2950' ORDER BY 1, 2;
CREATE TABLE restored (id uuid);
INSERT INTO restored VALUES (uuid_generate_v7()), ('ffffffff-ffff-ffff-ffff-ffffffffffff');
-- as pg_dump writes a view made where uuidx's were the only ones
CREATE VIEW newest AS SELECT public.max(id) AS max, public.min(id) AS min FROM public.restored;
SELECT max = 'ffffffff-ffff-ffff-ffff-ffffffffffff' AS view_max, uuid_version(min) AS view_min_version FROM newest;
-- unqualified: core's
CREATE VIEW unqualified AS SELECT max(id) FROM restored;
SELECT d.refobjid::regprocedure AS calls, p.pronamespace::regnamespace AS schema
FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid JOIN pg_proc p ON p.oid = d.refobjid
WHERE r.ev_class = 'unqualified'::regclass AND d.refclassid = 'pg_proc'::regclass;
DROP VIEW newest, unqualified;
-- the same through the update from 1.1, and from 1.3.3, which created
-- none where pg_catalog had them
DROP EXTENSION uuidx;
CREATE EXTENSION uuidx VERSION '1.1';
ALTER EXTENSION uuidx UPDATE;
SELECT count(*) AS uuidx_aggregates FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidx') AND p.prokind = 'a';
DROP EXTENSION uuidx;
CREATE EXTENSION uuidx VERSION '1.3.3';
SELECT count(*) AS uuidx_aggregates_at_1_3_3 FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidx') AND p.prokind = 'a';
ALTER EXTENSION uuidx UPDATE;
SELECT count(*) AS uuidx_aggregates FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidx') AND p.prokind = 'a';
\c contrib_regression
DROP DATABASE regress_uuidx_core_minmax;
