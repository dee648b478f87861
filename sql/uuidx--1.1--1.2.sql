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
