-- Every function's volatility, strictness, parallel safety and leakproofness,
-- its C entry point (or its language), and no clash with core functions.

SELECT p.oid::regprocedure AS function,
       CASE WHEN l.lanname IN ('plpgsql', 'sql') THEN 'LANGUAGE ' || l.lanname ELSE p.prosrc END AS entry_point,
       p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel, p.proleakproof AS leakproof,
       p.prosecdef AS security_definer
FROM pg_proc p
JOIN pg_language l ON l.oid = p.prolang
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
ORDER BY p.proname, p.oid::regprocedure::text;

-- Entry points follow src/uuidx.h's scheme: uuidx_, the SQL name without
-- its uuid_ or uuidx_ prefix, and for an overload the type names of its
-- last arguments.  (The aggregates min and max have no entry point: their
-- transition functions are uuidx_smaller and uuidx_larger; functions in
-- PL/pgSQL or SQL have none either.)
SELECT p.oid::regprocedure AS off_scheme, p.prosrc
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
WHERE p.prokind <> 'a' AND p.prolang NOT IN (SELECT oid FROM pg_language WHERE lanname IN ('plpgsql', 'sql'))
  AND p.prosrc NOT IN (
  SELECT 'uuidx_' || regexp_replace(p.proname, '^uuidx?_', '')
         || coalesce('_' || (SELECT string_agg(t.typname, '_' ORDER BY a.n)
                             FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(typ, n)
                             JOIN pg_type t ON t.oid = a.typ
                             WHERE a.n > p.pronargs - k), '')
  FROM generate_series(0, p.pronargs) k);

-- The operators: uuid <@ tstzrange and its commutator, with their estimators.
SELECT o.oid::regoperator AS operator, o.oprcode AS function, o.oprcom::regoperator AS commutator,
       o.oprrest AS restrict, o.oprjoin AS join
FROM pg_operator o
JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
ORDER BY o.oid::regoperator::text;
SELECT p.oid::regprocedure AS function, p.prosupport AS support
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
WHERE p.prosupport <> 0 ORDER BY p.oid::regprocedure::text;

-- No uuidx function has the name and argument types of a pg_catalog
-- function of this server ...
SELECT p.oid::regprocedure AS clash
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
JOIN pg_proc c ON c.pronamespace = 'pg_catalog'::regnamespace
              AND c.proname = p.proname AND c.proargtypes = p.proargtypes;
-- ... nor the name of a uuid function of PostgreSQL 15 to 18 and master.
SELECT p.proname AS clash
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
WHERE p.proname IN ('gen_random_uuid', 'uuidv4', 'uuidv7', 'uuid_extract_timestamp',
                    'uuid_extract_version', 'uuid_in', 'uuid_out', 'uuid_send', 'uuid_recv',
                    'uuid_cmp', 'uuid_eq', 'uuid_ne', 'uuid_lt', 'uuid_le', 'uuid_gt', 'uuid_ge',
                    'uuid_hash', 'uuid_hash_extended', 'uuid_sortsupport');

-- What PUBLIC may not run: moving the whole server's generators ahead.
SELECT p.oid::regprocedure AS not_public
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
WHERE NOT has_function_privilege('public', p.oid, 'EXECUTE')
ORDER BY p.oid::regprocedure::text;

-- The extension is trusted and relocatable, and nothing is SECURITY DEFINER.
SELECT extname, extrelocatable, extversion FROM pg_extension WHERE extname = 'uuidx';
SELECT trusted FROM pg_available_extension_versions WHERE name = 'uuidx';

-- uuidx_check_members(): no row while every member is uuidx's.  A
-- migration's polyfill, CREATE OR REPLACE FUNCTION uuid_generate_v7(),
-- keeps the member and its callers but runs its own code: the check names
-- it; re-created as uuidx's script creates it (as the README says), it is
-- uuidx's again.  Likewise a reader and an aggregate replaced by hand.
-- (It checks a member's language, its library and C function and, for an
-- aggregate, its transition function.)
SELECT * FROM uuidx_check_members();
BEGIN;
CREATE OR REPLACE FUNCTION uuid_generate_v7() RETURNS uuid LANGUAGE sql VOLATILE AS 'SELECT gen_random_uuid()';
SELECT uuid_version(uuid_generate_v7()) AS polyfill_version;
SELECT * FROM uuidx_check_members();
CREATE OR REPLACE FUNCTION uuid_generate_v7() RETURNS uuid
  AS '$libdir/uuidx', 'uuidx_generate_v7' LANGUAGE C VOLATILE PARALLEL SAFE;
SELECT uuid_version(uuid_generate_v7()) AS restored_version;
SELECT count(*) AS replaced FROM uuidx_check_members();
CREATE OR REPLACE FUNCTION uuid_timestamp(uuid) RETURNS timestamptz
  LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN NULL; END';
CREATE FUNCTION my_smaller(uuid, uuid) RETURNS uuid LANGUAGE sql AS 'SELECT $1';
ALTER AGGREGATE min(uuid) RENAME TO min_was_uuidx;
CREATE OR REPLACE AGGREGATE min_was_uuidx(uuid) (SFUNC = my_smaller, STYPE = uuid);
CREATE OR REPLACE FUNCTION uuid_generate_v6() RETURNS uuid
  AS '$libdir/uuidx', 'uuidx_generate_v8' LANGUAGE C VOLATILE PARALLEL SAFE;
SELECT * FROM uuidx_check_members();
ROLLBACK;
