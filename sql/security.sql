-- Security: uuidx is trusted, so a non-superuser with CREATE on a database
-- can install it; its install script cannot be subverted by look-alike
-- functions and operators on a hostile search_path or in the target schema;
-- and uuidx.node_id can be changed by a superuser only.
-- (No SECURITY DEFINER anywhere: checked in catalog.sql.)
\set VERBOSITY terse

CREATE ROLE regress_uuidx_user;
CREATE DATABASE regress_uuidx_regression;
\c regress_uuidx_regression
\set VERBOSITY terse

-- Without CREATE on the database, a non-superuser cannot install it.
SET ROLE regress_uuidx_user;
CREATE EXTENSION uuidx;
RESET ROLE;

-- With CREATE on the database (and nothing more) it can.
GRANT CREATE ON DATABASE regress_uuidx_regression TO regress_uuidx_user;
SET ROLE regress_uuidx_user;

-- Look-alikes of pg_catalog functions and operators the install script or
-- the C code could pick up if they resolved names through the search_path.
-- Each logs its call.  The script runs as the bootstrap superuser (trusted
-- extension), so a look-alike picked up there would run with superuser
-- rights.  They go into a schema put before pg_catalog on the session's
-- search_path, and into the extension's own schema, which is the
-- script's search_path.
CREATE SCHEMA regress_evil;
CREATE SCHEMA regress_uuidx;
CREATE TABLE regress_evil.calls (what text);
GRANT INSERT ON regress_evil.calls TO PUBLIC;
CREATE FUNCTION regress_evil.evil(what text) RETURNS boolean LANGUAGE plpgsql AS
$$ BEGIN INSERT INTO regress_evil.calls VALUES (what); RETURN true; END $$;
DO $$
DECLARE
  s text;
BEGIN
  FOREACH s IN ARRAY ARRAY['regress_evil', 'regress_uuidx'] LOOP
    EXECUTE format($f$
      CREATE FUNCTION %1$I.uuid_send(pg_catalog.uuid) RETURNS pg_catalog.bytea LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''uuid_send''); RETURN NULL; END';
      CREATE FUNCTION %1$I.uuid_eq(pg_catalog.uuid, pg_catalog.uuid) RETURNS pg_catalog.bool LANGUAGE plpgsql AS
        'BEGIN RETURN regress_evil.evil(''uuid_eq''); END';
      CREATE FUNCTION %1$I.uuid_lt(pg_catalog.uuid, pg_catalog.uuid) RETURNS pg_catalog.bool LANGUAGE plpgsql AS
        'BEGIN RETURN regress_evil.evil(''uuid_lt''); END';
      CREATE FUNCTION %1$I.texteq(pg_catalog.text, pg_catalog.text) RETURNS pg_catalog.bool LANGUAGE plpgsql AS
        'BEGIN RETURN regress_evil.evil(''texteq''); END';
      CREATE FUNCTION %1$I.bool(pg_catalog.int4) RETURNS pg_catalog.bool LANGUAGE plpgsql AS
        'BEGIN RETURN regress_evil.evil(''bool''); END';
      CREATE FUNCTION %1$I.text(pg_catalog.bool) RETURNS pg_catalog.text LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''text''); RETURN ''''; END';
      CREATE FUNCTION %1$I.set_config(pg_catalog.text, pg_catalog.text, pg_catalog.bool) RETURNS pg_catalog.text LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''set_config''); RETURN ''''; END';
      CREATE FUNCTION %1$I.current_setting(pg_catalog.text) RETURNS pg_catalog.text LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''current_setting''); RETURN ''''; END';
      CREATE FUNCTION %1$I.sha256(pg_catalog.bytea) RETURNS pg_catalog.bytea LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''sha256''); RETURN NULL; END';
      CREATE FUNCTION %1$I.now() RETURNS pg_catalog.timestamptz LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''now''); RETURN NULL; END';
      CREATE FUNCTION %1$I.clock_timestamp() RETURNS pg_catalog.timestamptz LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''clock_timestamp''); RETURN NULL; END';
      CREATE FUNCTION %1$I.gen_random_uuid() RETURNS pg_catalog.uuid LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''gen_random_uuid''); RETURN NULL; END';
      CREATE FUNCTION %1$I.timestamptz_pl_interval(pg_catalog.timestamptz, pg_catalog.interval)
        RETURNS pg_catalog.timestamptz LANGUAGE plpgsql AS
        'BEGIN PERFORM regress_evil.evil(''timestamptz_pl_interval''); RETURN NULL; END';
      CREATE OPERATOR %1$I.= (LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.uuid, FUNCTION = %1$I.uuid_eq);
      CREATE OPERATOR %1$I.< (LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.uuid, FUNCTION = %1$I.uuid_lt);
      CREATE OPERATOR %1$I.= (LEFTARG = pg_catalog.text, RIGHTARG = pg_catalog.text, FUNCTION = %1$I.texteq);
      CREATE OPERATOR %1$I.+ (LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.interval,
                              FUNCTION = %1$I.timestamptz_pl_interval);
    $f$, s);
  END LOOP;
END $$;
-- The look-alikes work: called through the hostile path, they log.
SET search_path = regress_evil, pg_catalog, public;
SELECT '00000000-0000-0000-0000-000000000000'::pg_catalog.uuid = '00000000-0000-0000-0000-000000000000'::pg_catalog.uuid AS evil_eq;
SELECT pg_catalog.count(*) AS logged_calls FROM regress_evil.calls;
TRUNCATE regress_evil.calls;

-- Install under the hostile search_path (pg_catalog explicitly after it).
CREATE EXTENSION uuidx SCHEMA regress_uuidx;
SELECT e.extname, e.extowner::regrole AS owner, n.nspname AS schema
FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
WHERE e.extname OPERATOR(pg_catalog.=) 'uuidx';
-- Use it, still under the hostile path (names qualified, as a careful user
-- on such a path would write them).
SELECT regress_uuidx.uuid_version(regress_uuidx.uuid_generate_v6()) AS v6,
       regress_uuidx.uuid_version(regress_uuidx.uuid_generate_v7()) AS v7,
       regress_uuidx.uuid_version(regress_uuidx.uuid_generate_v8()) AS v8,
       regress_uuidx.uuid_version(regress_uuidx.uuid_generate_v7('1 day'::pg_catalog.interval)) AS v7_shift,
       regress_uuidx.uuid_version(regress_uuidx.uuid_timestamptz_to_v7('2024-01-02 03:04:05+00'::pg_catalog.timestamptz)) AS v7_default_arg;
SELECT regress_uuidx.uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8'::pg_catalog.uuid,
                                           'www.example.com'::pg_catalog.text) AS name_v8;
SELECT regress_uuidx.uuid_v1_to_v6('c232ab00-9414-11ec-b3c8-9f6bdeced846'::pg_catalog.uuid) AS v1_to_v6;
SELECT regress_uuidx.uuid_timestamptz_to_v7('2024-01-02 03:04:05.678+00'::pg_catalog.timestamptz, true) AS zero_v7;
SELECT generator, scope FROM regress_uuidx.uuidx_generator_state();
-- No look-alike was called, neither by the install script nor by the
-- functions.
SELECT pg_catalog.count(*) AS logged_calls FROM regress_evil.calls;

-- Drop and create again under the same hostile path.
DROP EXTENSION uuidx;
CREATE EXTENSION uuidx SCHEMA regress_uuidx;
SELECT regress_uuidx.uuid_version(regress_uuidx.uuid_generate_v7()) AS v7;
SELECT pg_catalog.count(*) AS logged_calls FROM regress_evil.calls;
DROP EXTENSION uuidx;
RESET search_path;
RESET ROLE;

\c contrib_regression
\set VERBOSITY terse
DROP DATABASE regress_uuidx_regression;

-- uuidx.node_id is PGC_SUSET: an ordinary role cannot change it in any way.
SET ROLE regress_uuidx_user;
SHOW uuidx.node_id;
SET uuidx.node_id = 5;
BEGIN;
SET LOCAL uuidx.node_id = 5;
ROLLBACK;
SELECT set_config('uuidx.node_id', '5', false);
SELECT set_config('uuidx.node_id', '5', true);
ALTER ROLE CURRENT_USER SET uuidx.node_id = 5;
RESET uuidx.node_id;
SHOW uuidx.node_id;
RESET ROLE;
-- No role setting was stored.
SELECT count(*) AS stored_settings FROM pg_db_role_setting
WHERE setrole = 'regress_uuidx_user'::regrole;
-- Any other uuidx.* name is refused, for everyone.
SET uuidx.nodeid = 5;
-- A superuser can.
SET uuidx.node_id = 5;
SHOW uuidx.node_id;
RESET uuidx.node_id;
SHOW uuidx.node_id;

DROP ROLE regress_uuidx_user;
