-- uuidx 1.3 -> 1.3.1: upgrade script.  It leaves what sql/uuidx.sql creates
-- (t/008_upgrade.pl compares the two).  Every type and function referenced
-- is qualified with pg_catalog, or is the extension's own, created in this
-- script's schema.

\echo Use "ALTER EXTENSION uuidx UPDATE TO '1.3.1'" to load this file. \quit

-- A key range's bound from a range's parts, which the planner evaluates
-- for every partition it plans without building the range, and the arm of
-- two comparisons of a time form, whose times may cross.

CREATE FUNCTION uuidx_time_compared(id pg_catalog.uuid, lower pg_catalog.timestamptz, upper pg_catalog.timestamptz, bounds pg_catalog.text, version pg_catalog.int4, bounded pg_catalog.bool)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidx_time_compared'
LANGUAGE C IMMUTABLE PARALLEL SAFE LEAKPROOF
SUPPORT uuidx_time_range_support;
COMMENT ON FUNCTION uuidx_time_compared(pg_catalog.uuid, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS
'planner''s piece of f(id) >= lower AND f(id) < upper: as uuidx_time_between, for times that may cross';

CREATE FUNCTION uuidx_time_bound(lower pg_catalog.timestamptz, upper pg_catalog.timestamptz, bounds pg_catalog.text, version pg_catalog.int4, largest pg_catalog.bool)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_time_bound_text_int4_bool'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION uuidx_time_bound(pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS
'planner''s piece of uuid <@ tstzrange(lower, upper, bounds): as uuidx_time_bound of the range, with its parts';
