-- uuidx 1.0 -> 1.1: upgrade script.  It leaves what uuidx--1.1.sql creates
-- (t/008_upgrade.pl compares the two).  Every type and function referenced
-- is qualified with pg_catalog, or is the extension's own, created in this
-- script's schema.

\echo Use "ALTER EXTENSION uuidx UPDATE TO '1.1'" to load this file. \quit

-- C entry points renamed to one scheme (uuidx_ + the SQL name without its
-- uuid_ prefix, plus argument types for overloads; see src/uuidx.h).  The
-- 1.0 names stay in the library for databases still at 1.0.  Each
-- definition repeats 1.0's attributes, defaults and all.

CREATE OR REPLACE FUNCTION uuid_generate_v7(shift pg_catalog.interval)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v7_interval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_generate_v6(node pg_catalog.macaddr)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v6_macaddr'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_generate_v8_name(namespace pg_catalog.uuid, name pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8_name_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_generate_v8_name(namespace pg_catalog.uuid, name pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8_name_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_generate_v8_name(hashspace pg_catalog.uuid, namespace pg_catalog.uuid, name pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8_name_uuid_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_generate_v8_name(hashspace pg_catalog.uuid, namespace pg_catalog.uuid, name pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8_name_uuid_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_version(pg_catalog.uuid)
RETURNS pg_catalog.int2
AS 'MODULE_PATHNAME', 'uuidx_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OR REPLACE FUNCTION uuid_variant(pg_catalog.uuid)
RETURNS pg_catalog.int2
AS 'MODULE_PATHNAME', 'uuidx_variant'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OR REPLACE FUNCTION uuid_timestamp(pg_catalog.uuid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OR REPLACE FUNCTION uuid_clock_seq(pg_catalog.uuid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'uuidx_clock_seq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OR REPLACE FUNCTION uuid_node(pg_catalog.uuid)
RETURNS pg_catalog.macaddr
AS 'MODULE_PATHNAME', 'uuidx_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OR REPLACE FUNCTION uuid_v1_to_v6(pg_catalog.uuid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v1_to_v6'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_v6_to_v1(pg_catalog.uuid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v6_to_v1'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_v7_to_timestamptz(pg_catalog.uuid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_v7_to_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OR REPLACE FUNCTION uuid_v7_to_timestamp(pg_catalog.uuid)
RETURNS pg_catalog.timestamp
AS 'MODULE_PATHNAME', 'uuidx_v7_to_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OR REPLACE FUNCTION uuid_timestamptz_to_v7(pg_catalog.timestamptz, zero pg_catalog.bool DEFAULT false)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_timestamptz_to_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION uuid_timestamp_to_v7(pg_catalog.timestamp, zero pg_catalog.bool DEFAULT false)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_timestamp_to_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

-- Node ids.

CREATE FUNCTION uuid_v8_node_id(pg_catalog.uuid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'uuidx_v8_node_id'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_v8_node_id(pg_catalog.uuid) IS
'node id (bits 70-85) of a v8 in uuid_generate_v8()''s layout, NULL for other versions';

-- Time ranges: id <@ tstzrange and tstzrange @> id.  The planner turns them
-- into index conditions and partition pruning through the support function
-- (src/time_range.c); uuidx_time_within, uuidx_time_between and
-- uuidx_time_bound are the pieces it builds with, not meant to be called
-- directly.

CREATE FUNCTION uuidx_time_range_support(pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'uuidx_time_range_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidx_time_range_support(pg_catalog.internal) IS
'planner support for uuid <@ tstzrange: index conditions, partition pruning, estimates';

CREATE FUNCTION uuidx_time_range_sel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)
RETURNS pg_catalog.float8
AS 'MODULE_PATHNAME', 'uuidx_time_range_sel'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidx_time_range_sel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4) IS
'restriction estimator of uuid <@ tstzrange and tstzrange @> uuid';

CREATE FUNCTION uuidx_time_within(id pg_catalog.uuid, range pg_catalog.tstzrange, version pg_catalog.int4, bounded pg_catalog.bool)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidx_time_within'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT uuidx_time_range_support;
COMMENT ON FUNCTION uuidx_time_within(pg_catalog.uuid, pg_catalog.tstzrange, pg_catalog.int4, pg_catalog.bool) IS
'planner''s piece of uuid <@ tstzrange: id is a UUID of that version (6 or 7) with its time in range';

CREATE FUNCTION uuidx_time_between(id pg_catalog.uuid, lower pg_catalog.timestamptz, upper pg_catalog.timestamptz, bounds pg_catalog.text, version pg_catalog.int4, bounded pg_catalog.bool)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidx_time_between'
LANGUAGE C IMMUTABLE PARALLEL SAFE
SUPPORT uuidx_time_range_support;
COMMENT ON FUNCTION uuidx_time_between(pg_catalog.uuid, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS
'planner''s piece of uuid <@ tstzrange(lower, upper, bounds): as uuidx_time_within, with the range''s parts';

CREATE FUNCTION uuidx_time_bound(range pg_catalog.tstzrange, version pg_catalog.int4, upper pg_catalog.bool)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_time_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidx_time_bound(pg_catalog.tstzrange, pg_catalog.int4, pg_catalog.bool) IS
'planner''s piece of uuid <@ tstzrange: smallest (or largest) UUID of that version (6 or 7) with its time in range';

CREATE FUNCTION uuid_contained_by_tstzrange(pg_catalog.uuid, pg_catalog.tstzrange)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidx_contained_by_tstzrange'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT uuidx_time_range_support;
COMMENT ON FUNCTION uuid_contained_by_tstzrange(pg_catalog.uuid, pg_catalog.tstzrange) IS
'implementation of uuid <@ tstzrange: a v6 or v7 whose time lies in the range';

CREATE FUNCTION tstzrange_contains_uuid(pg_catalog.tstzrange, pg_catalog.uuid)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidx_tstzrange_contains_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT uuidx_time_range_support;
COMMENT ON FUNCTION tstzrange_contains_uuid(pg_catalog.tstzrange, pg_catalog.uuid) IS
'implementation of tstzrange @> uuid: a v6 or v7 whose time lies in the range';

CREATE OPERATOR <@ (
    LEFTARG = pg_catalog.uuid,
    RIGHTARG = pg_catalog.tstzrange,
    FUNCTION = uuid_contained_by_tstzrange,
    COMMUTATOR = @>,
    RESTRICT = uuidx_time_range_sel,
    JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR <@ (pg_catalog.uuid, pg_catalog.tstzrange) IS
'is a v6 or v7 whose time lies in the range';

CREATE OPERATOR @> (
    LEFTARG = pg_catalog.tstzrange,
    RIGHTARG = pg_catalog.uuid,
    FUNCTION = tstzrange_contains_uuid,
    COMMUTATOR = <@,
    RESTRICT = uuidx_time_range_sel,
    JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @> (pg_catalog.tstzrange, pg_catalog.uuid) IS
'contains a v6 or v7 whose time lies in the range';
