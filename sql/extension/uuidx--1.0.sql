-- uuidx 1.0: install script.
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
AS 'MODULE_PATHNAME', 'uuidx_generate_v7_shift'
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
AS 'MODULE_PATHNAME', 'uuidx_generate_v6_node'
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
AS 'MODULE_PATHNAME', 'uuidx_v8_name_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v8_name(pg_catalog.uuid, pg_catalog.text) IS
'name-based UUIDv8, SHA-256 over namespace and name (RFC 9562 Appendix B.2)';

CREATE FUNCTION uuid_generate_v8_name(namespace pg_catalog.uuid, name pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v8_name_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v8_name(pg_catalog.uuid, pg_catalog.bytea) IS
'name-based UUIDv8, SHA-256 over namespace and name bytes (RFC 9562 Appendix B.2)';

CREATE FUNCTION uuid_generate_v8_name(hashspace pg_catalog.uuid, namespace pg_catalog.uuid, name pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v8_hashspace_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v8_name(pg_catalog.uuid, pg_catalog.uuid, pg_catalog.text) IS
'name-based UUIDv8 in an rfc4122bis-12 hashspace (SHA2_224/256/384/512)';

CREATE FUNCTION uuid_generate_v8_name(hashspace pg_catalog.uuid, namespace pg_catalog.uuid, name pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v8_hashspace_bytea'
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
AS 'MODULE_PATHNAME', 'uuidx_uuid_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_version(pg_catalog.uuid) IS
'version nibble, or NULL when the variant is not RFC 9562''s';

CREATE FUNCTION uuid_variant(pg_catalog.uuid)
RETURNS pg_catalog.int2
AS 'MODULE_PATHNAME', 'uuidx_uuid_variant'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_variant(pg_catalog.uuid) IS
'variant bits as a number: 0 NCS, 2 RFC 9562, 6 Microsoft, 7 reserved';

CREATE FUNCTION uuid_timestamp(pg_catalog.uuid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_uuid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_timestamp(pg_catalog.uuid) IS
'creation time of a v1, v6 or v7 UUID, NULL for other versions';

CREATE FUNCTION uuid_clock_seq(pg_catalog.uuid)
RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'uuidx_uuid_clock_seq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_clock_seq(pg_catalog.uuid) IS
'14-bit clock_seq of a v1 or v6 UUID, NULL for other versions';

CREATE FUNCTION uuid_node(pg_catalog.uuid)
RETURNS pg_catalog.macaddr
AS 'MODULE_PATHNAME', 'uuidx_uuid_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_node(pg_catalog.uuid) IS
'48-bit node of a v1 or v6 UUID, NULL for other versions';

-- Conversion: IMMUTABLE STRICT PARALLEL SAFE.

CREATE FUNCTION uuid_v1_to_v6(pg_catalog.uuid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v1_to_v6_sql'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v1_to_v6(pg_catalog.uuid) IS
'v1 reordered as v6; a v6 comes back unchanged, anything else is an error';

CREATE FUNCTION uuid_v6_to_v1(pg_catalog.uuid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_v6_to_v1_sql'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v6_to_v1(pg_catalog.uuid) IS
'v6 reordered as v1; a v1 comes back unchanged, anything else is an error';

-- pg_uuidv7 compatibility (uuid_generate_v7() above is shared).

CREATE FUNCTION uuid_v7_to_timestamptz(pg_catalog.uuid)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidx_compat_v7_to_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_v7_to_timestamptz(pg_catalog.uuid) IS
'pg_uuidv7 compatibility: millisecond of a v7, NULL for other versions';

CREATE FUNCTION uuid_v7_to_timestamp(pg_catalog.uuid)
RETURNS pg_catalog.timestamp
AS 'MODULE_PATHNAME', 'uuidx_compat_v7_to_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_v7_to_timestamp(pg_catalog.uuid) IS
'pg_uuidv7 compatibility: millisecond of a v7 as UTC timestamp, NULL for other versions';

CREATE FUNCTION uuid_timestamptz_to_v7(pg_catalog.timestamptz, zero pg_catalog.bool DEFAULT false)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_compat_timestamptz_to_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamptz_to_v7(pg_catalog.timestamptz, pg_catalog.bool) IS
'pg_uuidv7 compatibility: v7 of the given millisecond, random or (zero) all-zero bits';

CREATE FUNCTION uuid_timestamp_to_v7(pg_catalog.timestamp, zero pg_catalog.bool DEFAULT false)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_compat_timestamptz_to_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamp_to_v7(pg_catalog.timestamp, pg_catalog.bool) IS
'pg_uuidv7 compatibility: v7 of the given UTC millisecond, random or (zero) all-zero bits';

-- Introspection.

CREATE FUNCTION uuidx_generator_state(
    OUT generator pg_catalog.text,
    OUT scope pg_catalog.text,
    OUT storage pg_catalog.text,
    OUT last_time pg_catalog.timestamptz,
    OUT clock_time pg_catalog.timestamptz,
    OUT ahead pg_catalog.interval,
    OUT reserved_until pg_catalog.timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uuidx_generator_state'
LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 3;
COMMENT ON FUNCTION uuidx_generator_state() IS
'per generator: whether its state is shared by the server or local to this backend, and how far it runs ahead of the clock';
