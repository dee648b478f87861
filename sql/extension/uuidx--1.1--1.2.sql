-- uuidx 1.1 -> 1.2: upgrade script.  It leaves what sql/uuidx.sql creates
-- (t/008_upgrade.pl compares the two).  Every type and function referenced
-- is qualified with pg_catalog, or is the extension's own, created in this
-- script's schema.

\echo Use "ALTER EXTENSION uuidx UPDATE TO '1.2'" to load this file. \quit

-- Time ranges: a span over both versions' keys, so that an index scan can
-- walk a range in key order, and pieces that never fail, so that they
-- serve an index under row-level security.

ALTER FUNCTION uuidx_time_between(pg_catalog.uuid, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.text, pg_catalog.int4, pg_catalog.bool) LEAKPROOF;

CREATE FUNCTION uuidx_time_span(id pg_catalog.uuid, range pg_catalog.tstzrange, beside pg_catalog.bool)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidx_time_span'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT uuidx_time_range_support;
COMMENT ON FUNCTION uuidx_time_span(pg_catalog.uuid, pg_catalog.tstzrange, pg_catalog.bool) IS
'planner''s piece of uuid <@ tstzrange: the same, as one index range over both versions';

CREATE FUNCTION uuidx_time_span_between(id pg_catalog.uuid, lower pg_catalog.timestamptz, upper pg_catalog.timestamptz, bounds pg_catalog.text, beside pg_catalog.bool)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidx_time_span_between'
LANGUAGE C IMMUTABLE PARALLEL SAFE LEAKPROOF
SUPPORT uuidx_time_range_support;
COMMENT ON FUNCTION uuidx_time_span_between(pg_catalog.uuid, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.text, pg_catalog.bool) IS
'planner''s piece of uuid <@ tstzrange(lower, upper, bounds): as uuidx_time_span, with the range''s parts';

-- The high-water mark in WAL: uuidx_generator_state() says whether it is.
-- A function's result columns cannot change in place.

ALTER EXTENSION uuidx DROP FUNCTION uuidx_generator_state();
DROP FUNCTION uuidx_generator_state();
CREATE FUNCTION uuidx_generator_state(
    OUT generator pg_catalog.text,
    OUT scope pg_catalog.text,
    OUT storage pg_catalog.text,
    OUT last_time pg_catalog.timestamptz,
    OUT clock_time pg_catalog.timestamptz,
    OUT ahead pg_catalog.interval,
    OUT reserved_until pg_catalog.timestamptz,
    OUT wal_logged pg_catalog.bool)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uuidx_generator_state'
LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 3;
COMMENT ON FUNCTION uuidx_generator_state() IS
'per generator: whether its state is shared by the server or local to this backend, how far it runs ahead of the clock, and whether its high-water mark goes into WAL';

-- Keys that do not show their time: a v7 as a version 4 UUID under a key,
-- and back.  Deterministic, so an index on the v7 key serves both ways.

CREATE FUNCTION uuid_v7_mask(id pg_catalog.uuid, key pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v7_mask'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_mask(pg_catalog.uuid, pg_catalog.bytea) IS
'a version 4 UUID that hides the time of the v7 id, reversible with the 16-byte key';

CREATE FUNCTION uuid_v7_unmask(masked pg_catalog.uuid, key pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v7_unmask'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_unmask(pg_catalog.uuid, pg_catalog.bytea) IS
'the v7 that uuid_v7_mask() masked with this key (another v7 under another key)';

-- ULID text: the 128 bits as 26 characters of Crockford's base32.

CREATE FUNCTION uuid_to_ulid(pg_catalog.uuid)
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidx_to_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_to_ulid(pg_catalog.uuid) IS
'the UUID''s 128 bits as ULID text (a v7 gives the ULID of its time)';

CREATE FUNCTION ulid_to_uuid(pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_ulid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_uuid(pg_catalog.text) IS
'the 128 bits of ULID text (either case) as a UUID';

-- min(uuid) and max(uuid), where pg_catalog has none: with uuid's < and >
-- as sort operators, so that the planner answers them from a B-tree index,
-- and combine functions, for parallel plans.

CREATE FUNCTION uuidx_smaller(pg_catalog.uuid, pg_catalog.uuid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidx_smaller(pg_catalog.uuid, pg_catalog.uuid) IS
'the smaller of two UUIDs: the transition function of min(uuid)';

CREATE FUNCTION uuidx_larger(pg_catalog.uuid, pg_catalog.uuid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidx_larger(pg_catalog.uuid, pg_catalog.uuid) IS
'the larger of two UUIDs: the transition function of max(uuid)';

DO $$
BEGIN
  IF pg_catalog.to_regprocedure('pg_catalog.min(pg_catalog.uuid)') IS NULL THEN
    CREATE AGGREGATE min(pg_catalog.uuid) (
      SFUNC = uuidx_smaller, STYPE = pg_catalog.uuid, COMBINEFUNC = uuidx_smaller,
      SORTOP = OPERATOR(pg_catalog.<), PARALLEL = SAFE);
    COMMENT ON AGGREGATE min(pg_catalog.uuid) IS 'the smallest UUID (uuidx, where pg_catalog has none)';
  END IF;
  IF pg_catalog.to_regprocedure('pg_catalog.max(pg_catalog.uuid)') IS NULL THEN
    CREATE AGGREGATE max(pg_catalog.uuid) (
      SFUNC = uuidx_larger, STYPE = pg_catalog.uuid, COMBINEFUNC = uuidx_larger,
      SORTOP = OPERATOR(pg_catalog.>), PARALLEL = SAFE);
    COMMENT ON AGGREGATE max(pg_catalog.uuid) IS 'the largest UUID (uuidx, where pg_catalog has none)';
  END IF;
END $$;
