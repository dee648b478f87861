-- uuidx 1.2 -> 1.3: upgrade script.  It leaves what sql/uuidx.sql creates
-- (t/008_upgrade.pl compares the two).  Every type and function referenced
-- is qualified with pg_catalog, or is the extension's own, created in this
-- script's schema.

\echo Use "ALTER EXTENSION uuidx UPDATE TO '1.3'" to load this file. \quit

-- The time of a UUID's text, for pg_partman's time decoder.

CREATE FUNCTION uuid_timestamp(pg_catalog.text)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_timestamp_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamp(pg_catalog.text) IS
'creation time of the v1, v6 or v7 UUID this text spells, NULL for other versions';

-- Moving the generators ahead, after data came from another server.

CREATE FUNCTION uuidx_generator_advance(past pg_catalog.uuid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_generator_advance_uuid'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION uuidx_generator_advance(pg_catalog.uuid) IS
'from now on, the generator of this v6, v7 or v8 key hands out only greater values, the others only later times; kept over restarts';
REVOKE EXECUTE ON FUNCTION uuidx_generator_advance(pg_catalog.uuid) FROM PUBLIC;

CREATE FUNCTION uuidx_generator_advance(past pg_catalog.timestamptz)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_generator_advance_timestamptz'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION uuidx_generator_advance(pg_catalog.timestamptz) IS
'from now on, every generator hands out only values of a later time; kept over restarts';
REVOKE EXECUTE ON FUNCTION uuidx_generator_advance(pg_catalog.timestamptz) FROM PUBLIC;
