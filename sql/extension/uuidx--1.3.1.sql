-- uuidx: install script of the current SQL version (the build copies it to
-- uuidx--<default_version>.sql).  uuidx--1.0.sql and the upgrade scripts give
-- the same objects; t/008_upgrade.pl compares the two.
-- Every type and function referenced is qualified with pg_catalog, so a
-- hostile search_path cannot substitute look-alikes.

\echo Use "CREATE EXTENSION uuidx" to load this file. \quit

-- Generators: VOLATILE, PARALLEL SAFE.

CREATE FUNCTION uuid_generate_v7()
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v7'
LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v7() IS
'UUIDv7 for now, strictly increasing across the server when the state is shared';

CREATE FUNCTION uuid_generate_v7(shift pg_catalog.interval)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v7_interval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v7(pg_catalog.interval) IS
'UUIDv7 for now + shift';

CREATE FUNCTION uuid_generate_v6()
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v6'
LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v6() IS
'UUIDv6 with random clock_seq and random multicast node, strictly increasing';

CREATE FUNCTION uuid_generate_v6(node pg_catalog.macaddr)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v6_macaddr'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v6(pg_catalog.macaddr) IS
'UUIDv6 with random clock_seq and the given node';

CREATE FUNCTION uuid_generate_v8()
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8'
LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v8() IS
'time-ordered UUIDv8: Unix ms, counter, node id from uuidx.node_id, random';

-- Deterministic builders: IMMUTABLE STRICT PARALLEL SAFE.

CREATE FUNCTION uuid_generate_v8_name(namespace pg_catalog.uuid, name pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8_name_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v8_name(pg_catalog.uuid, pg_catalog.text) IS
'name-based UUIDv8, SHA-256 over namespace and name (RFC 9562 Appendix B.2)';

CREATE FUNCTION uuid_generate_v8_name(namespace pg_catalog.uuid, name pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8_name_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v8_name(pg_catalog.uuid, pg_catalog.bytea) IS
'name-based UUIDv8, SHA-256 over namespace and name bytes (RFC 9562 Appendix B.2)';

CREATE FUNCTION uuid_generate_v8_name(hashspace pg_catalog.uuid, namespace pg_catalog.uuid, name pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8_name_uuid_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v8_name(pg_catalog.uuid, pg_catalog.uuid, pg_catalog.text) IS
'name-based UUIDv8 in an rfc4122bis-12 hashspace (SHA2_224/256/384/512)';

CREATE FUNCTION uuid_generate_v8_name(hashspace pg_catalog.uuid, namespace pg_catalog.uuid, name pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_generate_v8_name_uuid_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v8_name(pg_catalog.uuid, pg_catalog.uuid, pg_catalog.bytea) IS
'name-based UUIDv8 in an rfc4122bis-12 hashspace, over name bytes';

CREATE FUNCTION uuid_v8_from_parts(custom_a pg_catalog.int8, custom_b pg_catalog.int4, custom_c pg_catalog.int8)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v8_from_parts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v8_from_parts(pg_catalog.int8, pg_catalog.int4, pg_catalog.int8) IS
'UUIDv8 from custom_a (48 bits), custom_b (12 bits), custom_c (62 bits)';

CREATE FUNCTION uuid_v7_lower_bound(pg_catalog.timestamptz)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v7_lower_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_lower_bound(pg_catalog.timestamptz) IS
'smallest UUIDv7 of the millisecond of the given time';

CREATE FUNCTION uuid_v7_upper_bound(pg_catalog.timestamptz)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v7_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_upper_bound(pg_catalog.timestamptz) IS
'largest UUIDv7 of the millisecond of the given time';

-- Extraction: IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF (they never fail).

CREATE FUNCTION uuid_version(pg_catalog.uuid)
RETURNS pg_catalog.int2
AS 'MODULE_PATHNAME', 'uuidx_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_version(pg_catalog.uuid) IS
'version nibble, or NULL when the variant is not RFC 9562''s';

CREATE FUNCTION uuid_variant(pg_catalog.uuid)
RETURNS pg_catalog.int2
AS 'MODULE_PATHNAME', 'uuidx_variant'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_variant(pg_catalog.uuid) IS
'variant bits as a number: 0 NCS, 2 RFC 9562, 6 Microsoft, 7 reserved';

CREATE FUNCTION uuid_timestamp(pg_catalog.uuid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_timestamp(pg_catalog.uuid) IS
'creation time of a v1, v6 or v7 UUID, NULL for other versions';

-- The same of a UUID's text, for callers that pass keys as text (pg_partman's
-- time decoder); not LEAKPROOF, as text that is not a UUID is an error.
CREATE FUNCTION uuid_timestamp(pg_catalog.text)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_timestamp_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamp(pg_catalog.text) IS
'creation time of the v1, v6 or v7 UUID this text spells, NULL for other versions';

CREATE FUNCTION uuid_clock_seq(pg_catalog.uuid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'uuidx_clock_seq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_clock_seq(pg_catalog.uuid) IS
'14-bit clock_seq of a v1 or v6 UUID, NULL for other versions';

CREATE FUNCTION uuid_node(pg_catalog.uuid)
RETURNS pg_catalog.macaddr
AS 'MODULE_PATHNAME', 'uuidx_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_node(pg_catalog.uuid) IS
'48-bit node of a v1 or v6 UUID, NULL for other versions';

-- Conversion: IMMUTABLE STRICT PARALLEL SAFE.

CREATE FUNCTION uuid_v1_to_v6(pg_catalog.uuid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v1_to_v6'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v1_to_v6(pg_catalog.uuid) IS
'v1 reordered as v6; a v6 comes back unchanged, anything else is an error';

CREATE FUNCTION uuid_v6_to_v1(pg_catalog.uuid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v6_to_v1'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v6_to_v1(pg_catalog.uuid) IS
'v6 reordered as v1; a v1 comes back unchanged, anything else is an error';

-- pg_uuidv7 compatibility (uuid_generate_v7() above is shared).

CREATE FUNCTION uuid_v7_to_timestamptz(pg_catalog.uuid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_v7_to_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_v7_to_timestamptz(pg_catalog.uuid) IS
'pg_uuidv7 compatibility: millisecond of a v7, NULL for other versions';

CREATE FUNCTION uuid_v7_to_timestamp(pg_catalog.uuid)
RETURNS pg_catalog.timestamp
AS 'MODULE_PATHNAME', 'uuidx_v7_to_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_v7_to_timestamp(pg_catalog.uuid) IS
'pg_uuidv7 compatibility: millisecond of a v7 as UTC timestamp, NULL for other versions';

CREATE FUNCTION uuid_timestamptz_to_v7(pg_catalog.timestamptz, zero pg_catalog.bool DEFAULT false)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_timestamptz_to_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamptz_to_v7(pg_catalog.timestamptz, pg_catalog.bool) IS
'pg_uuidv7 compatibility: v7 of the given millisecond, random or (zero) all-zero bits';

CREATE FUNCTION uuid_timestamp_to_v7(pg_catalog.timestamp, zero pg_catalog.bool DEFAULT false)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_timestamp_to_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamp_to_v7(pg_catalog.timestamp, pg_catalog.bool) IS
'pg_uuidv7 compatibility: v7 of the given UTC millisecond, random or (zero) all-zero bits';

-- Node ids.

CREATE FUNCTION uuid_v8_node_id(pg_catalog.uuid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'uuidx_v8_node_id'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_v8_node_id(pg_catalog.uuid) IS
'node id (bits 70-85) of a v8 in uuid_generate_v8()''s layout, NULL for other versions';

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

-- Time ranges: id <@ tstzrange and tstzrange @> id.  The planner turns them
-- into index conditions and partition pruning through the support function
-- (src/time_range_support.c); uuidx_time_span, uuidx_time_span_between,
-- uuidx_time_within, uuidx_time_between and uuidx_time_bound are the pieces
-- it builds with, not meant to be called directly.

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
LANGUAGE C IMMUTABLE PARALLEL SAFE LEAKPROOF
SUPPORT uuidx_time_range_support;
COMMENT ON FUNCTION uuidx_time_between(pg_catalog.uuid, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS
'planner''s piece of uuid <@ tstzrange(lower, upper, bounds): as uuidx_time_within, with the range''s parts';

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

CREATE FUNCTION uuidx_time_bound(range pg_catalog.tstzrange, version pg_catalog.int4, upper pg_catalog.bool)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_time_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidx_time_bound(pg_catalog.tstzrange, pg_catalog.int4, pg_catalog.bool) IS
'planner''s piece of uuid <@ tstzrange: smallest (or largest) UUID of that version (6 or 7) with its time in range';

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

-- Introspection.

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

-- Moving the generators ahead, after data came from another server: for
-- superusers, and those they grant it to (it moves the whole server's
-- generators).  PARALLEL UNSAFE: it writes the mark, and WAL.

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
