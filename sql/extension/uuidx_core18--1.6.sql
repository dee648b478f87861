-- uuidx_core18 1.6, as 1.4: PostgreSQL 18's SQL names for UUIDs on 15 to 17,
-- with 18's signatures and attributes (pg_proc.dat of 18: STRICT even
-- without arguments, as there), backed by uuidx:
-- uuidv7() is uuid_generate_v7(), strictly increasing across the server;
-- uuidv7(interval) checks its shift as 18 does; uuidv4() is core's
-- gen_random_uuid(), which 18's uuidv4() is too; the readers give what
-- 18's give (uuid_extract_timestamp() reads v1 and v7 keys, not v6).
--
-- The five are created on every major, in the extension's schema, also
-- where pg_catalog has the name (17: uuid_extract_*, 18: all five).  There
-- an unqualified call reaches pg_catalog's, which the search path puts
-- first; a dump names the extension's copies schema-qualified (DEFAULT
-- public.uuidv7()), and restoring it into a later major must find them.

\echo Use "CREATE EXTENSION uuidx_core18" to load this file. \quit

-- uuidx at SQL 1.4 or later, whose uuidx_generator_advance_columns() finds
-- the columns uuidv7() fills and whose uuidx_check_members() covers these.
DO $$
BEGIN
  IF (SELECT pg_catalog.string_to_array(extversion, '.')::pg_catalog.int4[] OPERATOR(pg_catalog.<) '{1,4}'::pg_catalog.int4[]
        FROM pg_catalog.pg_extension WHERE extname = 'uuidx') THEN
    RAISE EXCEPTION 'uuidx_core18 needs uuidx at SQL version 1.4 or later, not %',
                    (SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'uuidx')
      USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = 'Run ALTER EXTENSION uuidx UPDATE first.';
  END IF;
END $$;

CREATE FUNCTION uuidv7()
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7() IS
'generate UUID version 7 (uuidx: strictly increasing across the server)';

CREATE FUNCTION uuidv7(shift pg_catalog.interval)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v7_interval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7(pg_catalog.interval) IS
'generate UUID version 7 with a timestamp shifted by specified interval (uuidx)';

CREATE FUNCTION uuidv4()
RETURNS pg_catalog.uuid
AS 'gen_random_uuid'
LANGUAGE internal VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv4() IS
'generate UUID version 4 (core''s gen_random_uuid())';

CREATE FUNCTION uuid_extract_timestamp(pg_catalog.uuid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_core_extract_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_extract_timestamp(pg_catalog.uuid) IS
'extract timestamp from UUID: v1 and v7, as PostgreSQL 18 (uuidx)';

CREATE FUNCTION uuid_extract_version(pg_catalog.uuid)
RETURNS pg_catalog.int2
AS 'MODULE_PATHNAME', 'uuidx_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_extract_version(pg_catalog.uuid) IS
'extract version from RFC 9562 UUID (uuidx)';
