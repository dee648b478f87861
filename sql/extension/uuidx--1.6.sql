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


CREATE FUNCTION uuid_variant(pg_catalog.uuid)
RETURNS pg_catalog.int2
AS 'MODULE_PATHNAME', 'uuidx_variant'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_variant(pg_catalog.uuid) IS
'variant bits as a number: 0 NCS, 2 RFC 9562, 6 Microsoft, 7 reserved';

-- uuid_version(uuid) and uuid_timestamp(uuid).  A schema that holds a
-- function of either name and argument already (TimescaleDB's, from 2.23:
-- it installs in public too, and its script fails beside uuidx's names, so
-- it goes first) keeps it, with a WARNING that says whose it is, as min
-- and max are kept (below).  TimescaleDB's uuid_version() reads what
-- uuidx's does; its uuid_timestamp() reads v7 keys only (NULL for v1 and
-- v6) and to the millisecond: unqualified calls reach theirs.  uuidx's own
-- SQL calls neither; its C code finds its functions as the extension's
-- members, not by name.  (A database at an earlier version has uuidx's.)
DO $$
DECLARE
  f record;
  sig pg_catalog.regprocedure;
  owner pg_catalog.name;
BEGIN
  FOR f IN SELECT * FROM (VALUES
      ('uuid_version', 'pg_catalog.int2', 'uuidx_version',
       'version nibble, or NULL when the variant is not RFC 9562''s'),
      ('uuid_timestamp', 'pg_catalog.timestamptz', 'uuidx_timestamp',
       'creation time of a v1, v6 or v7 UUID, NULL for other versions')) v(name, result, symbol, note) LOOP
    sig := pg_catalog.to_regprocedure(pg_catalog.format('%I.%s(pg_catalog.uuid)', pg_catalog.current_schema(), f.name));
    IF sig IS NULL THEN
      EXECUTE pg_catalog.format('CREATE FUNCTION %s(pg_catalog.uuid) RETURNS %s AS %L, %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF',
                                f.name, f.result, 'MODULE_PATHNAME', f.symbol);
      EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s(pg_catalog.uuid) IS %L', f.name, f.note);
    ELSIF NOT EXISTS (SELECT FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
                       WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND d.objid OPERATOR(pg_catalog.=) sig::pg_catalog.oid
                         AND e.extname = 'uuidx' AND d.deptype = 'e') THEN
      owner := (SELECT e.extname FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
                 WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND d.objid OPERATOR(pg_catalog.=) sig::pg_catalog.oid AND d.deptype = 'e');
      RAISE WARNING 'schema "%" already has %(uuid), %: left as it is', pg_catalog.current_schema(), f.name,
                    CASE WHEN owner IS NULL THEN 'which is no extension''s' ELSE pg_catalog.format('extension %I''s', owner) END
        USING DETAIL = pg_catalog.format('Unqualified calls of %s(uuid) reach it, not uuidx''s.', f.name),
              HINT = CASE WHEN owner IS DISTINCT FROM 'timescaledb'
                       THEN 'To call uuidx''s unqualified, create uuidx in a schema of its own, first in the search path.'
                       WHEN f.name = 'uuid_timestamp'
                       THEN 'TimescaleDB''s reads v7 keys only, to the millisecond, and uuidx''s time queries read it as they read uuid_v7_to_timestamptz(); for v1 and v6 keys call uuidx''s, in a schema of its own.'
                       ELSE 'TimescaleDB''s reads what uuidx''s does.' END;
    END IF;
  END LOOP;
END $$;

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

-- min(uuid) and max(uuid) in the extension's schema, with uuid's < and > as
-- sort operators, so that the planner answers them from a B-tree index,
-- and combine functions, for parallel plans.  A schema that has its own is
-- left as it is, with a WARNING (an extension script's NOTICE never
-- reaches the client: CREATE EXTENSION raises client_min_messages to
-- WARNING while it runs).  Where pg_catalog has them too (the
-- development branch that becomes PostgreSQL 20), unqualified calls reach
-- core's, which the search path puts first, and uuidx's serve calls
-- qualified with the schema, as a dump from a server without core's writes
-- them (public.max(id) in a view).  The same block in the upgrade scripts
-- creates what an earlier release left out.

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
DECLARE
  agg text;
  sig pg_catalog.regprocedure;
BEGIN
  FOREACH agg IN ARRAY ARRAY['min', 'max'] LOOP
    sig := pg_catalog.to_regprocedure(pg_catalog.format('%I.%s(pg_catalog.uuid)', pg_catalog.current_schema(), agg));
    IF sig IS NULL THEN
      EXECUTE pg_catalog.format('CREATE AGGREGATE %s(pg_catalog.uuid) (SFUNC = %s, STYPE = pg_catalog.uuid, COMBINEFUNC = %2$s, SORTOP = OPERATOR(pg_catalog.%s), PARALLEL = SAFE)',
                                agg, CASE agg WHEN 'min' THEN 'uuidx_smaller' ELSE 'uuidx_larger' END,
                                CASE agg WHEN 'min' THEN '<' ELSE '>' END);
      EXECUTE pg_catalog.format('COMMENT ON AGGREGATE %s(pg_catalog.uuid) IS %L', agg,
                                CASE agg WHEN 'min' THEN 'the smallest UUID (uuidx)' ELSE 'the largest UUID (uuidx)' END);
    ELSIF EXISTS (SELECT FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
                   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND d.objid OPERATOR(pg_catalog.=) sig::pg_catalog.oid
                     AND e.extname = 'uuidx' AND d.deptype = 'e') THEN
      EXECUTE pg_catalog.format('COMMENT ON AGGREGATE %s(pg_catalog.uuid) IS %L', agg,
                                CASE agg WHEN 'min' THEN 'the smallest UUID (uuidx)' ELSE 'the largest UUID (uuidx)' END);
    ELSE
      RAISE WARNING 'schema "%" already has %(uuid), which is not uuidx''s: left as it is', pg_catalog.current_schema(), agg
        USING DETAIL = 'uuidx creates its ' || agg || '(uuid) only in a schema that has none.',
              HINT = 'A dump of this database restores uuidx''s first, and then fails to create that schema''s: replace it with uuidx''s as the README shows, or create uuidx in another schema.';
    END IF;
  END LOOP;
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

CREATE FUNCTION uuidx_mark_status(
    OUT worker_running pg_catalog.bool,
    OUT worker_pid pg_catalog.int4,
    OUT worker_last_move pg_catalog.timestamptz,
    OUT worker_last_sync pg_catalog.timestamptz,
    OUT writer_pid pg_catalog.int4,
    OUT durable_writes pg_catalog.int8,
    OUT unsynced pg_catalog.bool)
RETURNS record
AS 'MODULE_PATHNAME', 'uuidx_mark_status'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION uuidx_mark_status() IS
'the high-water mark''s upkeep: whether the mark worker runs, when it last moved or synced the mark, which process writes it now, its durable writes, and whether a replayed mark awaits its fsync';

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

-- One call after a move: every column of this database whose keys come
-- from uuidx's generators (a column's DEFAULT or its domain's calls one, or
-- uuidx_core18's uuidv7()),
-- in every schema, read for its greatest key of each generator's version
-- and passed; what cannot be read or passed is said in its row and the
-- rest go on.  SECURITY INVOKER: the caller reads the tables (row-level
-- security off: a policy that hid keys would leave them unpassed, so such
-- a table is an error for a caller the policy applies to) and needs
-- uuidx_generator_advance().

CREATE FUNCTION uuidx_generator_advance_columns(
    OUT table_name pg_catalog.regclass,
    OUT column_name pg_catalog.name,
    OUT version pg_catalog.int2,
    OUT shift pg_catalog.interval,
    OUT greatest_key pg_catalog.uuid,
    OUT advanced_to pg_catalog.timestamptz,
    OUT note pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
    ext text;                   -- uuidx's schema, quoted
    const_shift constant text := '(?:uuid_generate_v7|uuidv7)\(((''(?:[^'']|'''')*'')::interval(?: [a-z]+(?: to [a-z]+)?)?(?:\(\d+\))?)\)';
    c record;
    leaf record;
    base oid;
    key text;                   -- the column as a uuid, in SQL
    keytime text;               -- that key's time, in SQL
    below text;                 -- index conditions: keys of times up to $2
    above text;                 -- and from $2 to $3
    shifts interval[];
    s interval;
    bound timestamptz;
    lim timestamptz;
    k uuid;
    ktime timestamptz;
    far uuid;
    t timestamptz;
    plain_key uuid;             -- the greatest key a plain call must pass
    shifted_need timestamptz;   -- the time shifted calls must pass
    leaf_note text;
    leaf_shift interval;
    leaf_need timestamptz;
    lit text;
    rows_of text;
    fartime timestamptz;
BEGIN
    SELECT quote_ident(n.nspname) INTO ext
      FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'uuidx';
    FOR c IN
        WITH RECURSIVE gens AS (
            -- uuidx's generators, and uuidx_core18's uuidv7(), by their C code
            SELECT p.oid, substr(p.prosrc, 17, 1)::int2 AS version, p.prosrc = 'uuidx_generate_v7_interval' AS shifted
              FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
             WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass
               AND d.refobjid IN (SELECT oid FROM pg_extension WHERE extname IN ('uuidx', 'uuidx_core18')) AND d.deptype = 'e'
               AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
               AND p.prosrc IN ('uuidx_generate_v6', 'uuidx_generate_v6_macaddr', 'uuidx_generate_v7',
                                'uuidx_generate_v7_interval', 'uuidx_generate_v8')),
        -- domains whose DEFAULT calls a generator, and domains over them
        -- without a DEFAULT of their own
        doms (oid, expr, gen) AS (
            SELECT t.oid, pg_get_expr(t.typdefaultbin, 0), d.refobjid
              FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
             WHERE t.typtype = 'd' AND d.refclassid = 'pg_proc'::regclass AND d.refobjid IN (SELECT oid FROM gens)
            UNION ALL
            SELECT t.oid, doms.expr, doms.gen
              FROM pg_type t JOIN doms ON t.typbasetype = doms.oid
             WHERE t.typtype = 'd' AND t.typdefaultbin IS NULL),
        cols (rel, att, typ, expr, gen) AS (
            SELECT a.attrelid, a.attname, a.atttypid, pg_get_expr(ad.adbin, ad.adrelid), d.refobjid
              FROM pg_attrdef ad
              JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
              JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid
             WHERE d.refclassid = 'pg_proc'::regclass AND d.refobjid IN (SELECT oid FROM gens)
            UNION ALL
            SELECT a.attrelid, a.attname, a.atttypid, doms.expr, doms.gen
              FROM pg_attribute a JOIN doms ON a.atttypid = doms.oid
             WHERE a.attnum > 0 AND NOT a.attisdropped AND NOT a.atthasdef),
        -- each relation's own calls, per column and version
        own AS (
            SELECT cols.rel, cols.att, cols.typ, g.version,
                   coalesce(array_agg(DISTINCT cols.expr) FILTER (WHERE g.shifted), '{}') AS exprs,
                   bool_or(NOT g.shifted) AS plain
              FROM cols JOIN gens g ON g.oid = cols.gen
              JOIN pg_class r ON r.oid = cols.rel
             WHERE r.relkind IN ('r', 'p', 'f', 'v')
               AND (r.relpersistence <> 't' OR r.relnamespace = pg_my_temp_schema())
             GROUP BY 1, 2, 3, 4),
        -- one row per topmost such relation: its rows, and its children's,
        -- which its calls fill as well as their own
        roots AS (
            SELECT o.* FROM own o
             WHERE NOT EXISTS (
                   WITH RECURSIVE up (rel) AS (
                       SELECT inhparent FROM pg_inherits WHERE inhrelid = o.rel
                       UNION
                       SELECT i.inhparent FROM up JOIN pg_inherits i ON i.inhrelid = up.rel)
                   SELECT FROM up JOIN own p ON p.rel = up.rel AND p.att = o.att AND p.version = o.version)),
        tree (root, att, version, rel, exprs, plain) AS (
            SELECT r.rel, r.att, r.version, r.rel, r.exprs, r.plain FROM roots r
            UNION ALL
            SELECT t.root, t.att, t.version, i.inhrelid, t.exprs || coalesce(o.exprs, '{}'), t.plain OR coalesce(o.plain, false)
              FROM tree t JOIN pg_inherits i ON i.inhparent = t.rel
              LEFT JOIN own o ON o.rel = i.inhrelid AND o.att = t.att AND o.version = t.version)
        SELECT r.rel, r.att, r.typ, r.version,
               (SELECT coalesce(jsonb_agg(jsonb_build_object('rel', t.rel::oid, 'exprs', to_jsonb(t.exprs), 'plain', t.plain)
                                          ORDER BY t.rel::regclass::text), '[]')
                  FROM tree t JOIN pg_class l ON l.oid = t.rel
                 WHERE t.root = r.rel AND t.att = r.att AND t.version = r.version
                   AND (l.relkind IN ('r', 'f') OR (l.relkind = 'v' AND t.rel = r.rel))) AS leaves
          FROM roots r
         ORDER BY r.rel::regclass::text, r.att, r.version
    LOOP
        table_name := c.rel;
        column_name := c.att;
        version := c.version;
        shift := NULL;
        greatest_key := NULL;
        advanced_to := NULL;
        note := NULL;
        plain_key := NULL;
        shifted_need := NULL;

        -- the column's keys as uuids, their time, and bounds its index can use
        base := c.typ;
        WHILE (SELECT typtype FROM pg_type WHERE oid = base) = 'd' LOOP
            base := (SELECT typbasetype FROM pg_type WHERE oid = base);
        END LOOP;
        -- (uuidx's own functions: uuid_timestamp(uuid) and uuid_version(uuid)
        -- in the schema may be another extension's)
        keytime := CASE WHEN c.version = 6 THEN format('%s.uuid_timestamp(k::text)', ext)
                        ELSE $q$('epoch'::timestamptz + ('x' || substr(replace(k::text, '-', ''), 1, 12))::bit(48)::int8 * interval '1 millisecond')$q$
                   END;
        IF base = 'uuid'::regtype THEN
            key := quote_ident(c.att);
            IF c.version = 6 THEN
                below := format($q$k <= %1$s.uuidx_time_bound(tstzrange($2, $2, '[]'), 6, true)$q$, ext);
                above := format($q$k > %1$s.uuidx_time_bound(tstzrange($2, $2, '[]'), 6, true) AND k <= %1$s.uuidx_time_bound(tstzrange($3, $3, '[]'), 6, true)$q$, ext);
            ELSE
                -- (a v8 key sorts after the v7 keys of its millisecond)
                below := format($q$k < %1$s.uuid_v7_lower_bound(date_trunc('milliseconds', $2) + interval '1 millisecond')$q$, ext);
                above := format($q$k >= %1$s.uuid_v7_lower_bound(date_trunc('milliseconds', $2) + interval '1 millisecond') AND k < %1$s.uuid_v7_lower_bound($3)$q$, ext);
            END IF;
        ELSIF base IN ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype) THEN
            key := format('CASE WHEN length(%1$I::text) = 26 THEN %2$s.ulid_to_uuid(%1$I::text) ELSE %1$I::text::uuid END',
                          c.att, ext);
            below := 'true';
            above := 'true';
        ELSE
            note := format('not advanced: a column of type %s holds no UUID this function reads', format_type(c.typ, NULL));
            RETURN NEXT;
            CONTINUE;
        END IF;

        -- each relation that holds the rows, with the calls that fill it
        FOR leaf IN SELECT (l->>'rel')::oid AS rel, (l->>'plain')::bool AS plain,
                           ARRAY(SELECT jsonb_array_elements_text(l->'exprs')) AS exprs
                      FROM jsonb_array_elements(c.leaves) l
        LOOP
            leaf_note := NULL;
            BEGIN
                -- the constant shifts of shifted calls; any other is an error
                IF EXISTS (SELECT FROM unnest(leaf.exprs) e
                            WHERE (SELECT count(*) FROM regexp_matches(e, '(?:uuid_generate_v7|uuidv7)\((?!\))', 'g'))
                               <> (SELECT count(*) FROM regexp_matches(e, const_shift, 'g'))) THEN
                    RAISE EXCEPTION 'its DEFAULT shifts uuid_generate_v7() by an interval that is not a constant: %',
                        (SELECT string_agg(DISTINCT e, ', ') FROM unnest(leaf.exprs) e)
                        USING ERRCODE = 'feature_not_supported';
                END IF;
                shifts := '{}';
                FOR lit IN SELECT DISTINCT m[1] FROM unnest(leaf.exprs) e, regexp_matches(e, const_shift, 'g') m LOOP
                    EXECUTE 'SELECT ' || lit INTO s;    -- a literal and a cast, as matched
                    shifts := shifts || s;
                    IF date_part('day', s) <> 0 OR date_part('month', s) <> 0 OR date_part('year', s) <> 0 THEN
                        leaf_note := format('its shift %s has days or months, which each session adds in its own TimeZone: passed for sessions in %s',
                                            s, current_setting('TimeZone'));
                    END IF;
                END LOOP;
                leaf_shift := (SELECT min(x) FROM unnest(shifts || CASE WHEN leaf.plain THEN interval '0' END) x);
                shift := least(shift, leaf_shift);

                -- its greatest key within the bound, and the greatest beyond
                -- (up to a century)
                bound := clock_timestamp() + interval '24 hours' - interval '1 second';
                lim := bound + leaf_shift - interval '1 millisecond';
                rows_of := format('(SELECT %s AS k FROM %s %s) s', key,
                                  CASE WHEN (SELECT relkind FROM pg_class WHERE oid = leaf.rel) = 'v' THEN '' ELSE 'ONLY' END,
                                  leaf.rel::regclass);
                EXECUTE format('SELECT k, %4$s FROM %1$s WHERE %2$s.uuid_variant(k) = 2 AND substr(k::text, 15, 1) = $1::text AND %3$s AND %4$s <= $2
                                 ORDER BY k DESC LIMIT 1', rows_of, ext, below, keytime)
                  INTO k, ktime USING c.version, lim;
                EXECUTE format('SELECT k, %4$s FROM %1$s WHERE %2$s.uuid_variant(k) = 2 AND substr(k::text, 15, 1) = $1::text AND %3$s AND %4$s > $2
                                 ORDER BY k DESC LIMIT 1', rows_of, ext, above, keytime)
                  INTO far, fartime USING c.version, lim, lim + interval '100 years';
                IF far IS NOT NULL THEN
                    leaf_note := concat_ws('; ', leaf_note,
                        format('its key %s of %s is more than 24 hours ahead of the clock: passed its greatest key within that bound', far, fartime));
                END IF;

                -- what passes it: the key itself for a plain call; for a
                -- shifted one, a time t with t + shift past the key's time
                leaf_need := NULL;
                IF k IS NOT NULL THEN
                    IF c.version <> 6 THEN
                        ktime := ktime + interval '999 microseconds';    -- its millisecond's last
                    END IF;
                    FOREACH s IN ARRAY shifts LOOP
                        t := ktime + interval '1 microsecond' - s;
                        FOR i IN 1 .. 10 LOOP
                            EXIT WHEN t + s > ktime;
                            t := t + ((ktime + interval '1 microsecond') - (t + s));
                        END LOOP;
                        IF t + s <= ktime OR t > bound THEN
                            RAISE EXCEPTION 'its greatest key within 24 hours of the clock, %, needs the generators at %, with its shift %', k, t, s
                                USING ERRCODE = 'invalid_parameter_value';
                        END IF;
                        leaf_need := greatest(leaf_need, t);
                    END LOOP;
                END IF;

                -- kept for the column; then this block's subtransaction
                -- ends in an error of its own, so that the locks of what it
                -- read go (a call holds no lock on every table at once)
                IF k IS NOT NULL THEN
                    greatest_key := greatest(greatest_key, k);
                    plain_key := CASE WHEN leaf.plain THEN greatest(plain_key, k) ELSE plain_key END;
                    shifted_need := greatest(shifted_need, leaf_need);
                END IF;
                RAISE EXCEPTION USING ERRCODE = 'UX000';
            EXCEPTION
                WHEN SQLSTATE 'UX000' THEN
                    NULL;
                WHEN OTHERS THEN
                    leaf_note := format('not advanced: %s (SQLSTATE %s)', SQLERRM, SQLSTATE);
            END;
            IF leaf_note IS NOT NULL THEN
                note := concat_ws('; ', note, CASE WHEN leaf.rel <> c.rel THEN leaf.rel::regclass || ': ' ELSE '' END || leaf_note);
            END IF;
        END LOOP;

        IF greatest_key IS NULL THEN
            note := coalesce(note, format('no key of version %s', c.version));
        ELSE
            BEGIN
                IF plain_key IS NOT NULL THEN
                    EXECUTE format('SELECT %s.uuidx_generator_advance($1)', ext) INTO advanced_to USING plain_key;
                END IF;
                IF shifted_need IS NOT NULL THEN
                    EXECUTE format('SELECT %s.uuidx_generator_advance($1)', ext) INTO t USING shifted_need;
                    advanced_to := greatest(advanced_to, t);
                END IF;
            EXCEPTION WHEN OTHERS THEN
                advanced_to := NULL;
                note := concat_ws('; ', note, format('not advanced: %s (SQLSTATE %s)', SQLERRM, SQLSTATE));
            END;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;
COMMENT ON FUNCTION uuidx_generator_advance_columns() IS
'advances the generators past the greatest key of every column of this database whose DEFAULT, or its domain''s, calls one of them; one row per column and version';
REVOKE EXECUTE ON FUNCTION uuidx_generator_advance_columns() FROM PUBLIC;

-- Members replaced from outside: a migration's CREATE OR REPLACE FUNCTION
-- uuid_generate_v7() (a polyfill for servers without uuidx) keeps the
-- function a member of the extension, and every DEFAULT that calls it, but
-- runs the migration's code: its keys are not uuidx's, nor in its order.
-- A row per function of uuidx or uuidx_core18 that is no longer what their
-- scripts made: the C function of uuidx's library its name gives (as
-- sql/catalog.sql checks; uuidx_core18's named one by one, its uuidv4()
-- core's gen_random_uuid()), PL/pgSQL or SQL for the two functions in
-- those, uuidx_smaller and uuidx_larger for the aggregates.
CREATE FUNCTION uuidx_check_members(
    OUT member pg_catalog.regprocedure,
    OUT extension pg_catalog.name,
    OUT language pg_catalog.name,
    OUT note pg_catalog.text)
RETURNS SETOF record
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT p.oid::regprocedure, e.extname, l.lanname,
       format('not %s''s: %s', e.extname,
              CASE WHEN p.prokind = 'a' THEN 'an aggregate of another transition function, ' || a.aggtransfn
                   WHEN l.lanname = 'c' THEN format('C code of %s (%s)', p.probin, p.prosrc)
                   ELSE format('%s code', l.lanname) END)
  FROM pg_depend d
  JOIN pg_extension e ON e.oid = d.refobjid
  JOIN pg_proc p ON p.oid = d.objid
  JOIN pg_language l ON l.oid = p.prolang
  LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
 WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND e.extname IN ('uuidx', 'uuidx_core18')
   AND NOT CASE
         WHEN p.prokind = 'a' THEN a.aggtransfn::oid IN (SELECT x.objid FROM pg_depend x
                                                        JOIN pg_proc t ON t.oid = x.objid
                                                       WHERE x.refobjid = e.oid AND x.deptype = 'e'
                                                         AND t.proname IN ('uuidx_smaller', 'uuidx_larger'))
         WHEN p.proname = 'uuidx_generator_advance_columns' OR p.proname = 'uuidx_check_members'
           THEN l.lanname IN ('plpgsql', 'sql')
         WHEN e.extname = 'uuidx_core18'
           THEN p.prosrc = CASE p.proname || '/' || p.pronargs
                  WHEN 'uuidv4/0' THEN 'gen_random_uuid'
                  WHEN 'uuidv7/0' THEN 'uuidx_generate_v7'
                  WHEN 'uuidv7/1' THEN 'uuidx_generate_v7_interval'
                  WHEN 'uuid_extract_timestamp/1' THEN 'uuidx_core_extract_timestamp'
                  WHEN 'uuid_extract_version/1' THEN 'uuidx_version' END
                AND CASE WHEN p.proname = 'uuidv4' THEN l.lanname = 'internal'
                         ELSE l.lanname = 'c' AND p.probin = '$libdir/uuidx' END
         -- uuidx's C entry points: uuidx_, the name without its uuid_ or
         -- uuidx_ prefix, and for an overload its last arguments' types
         ELSE l.lanname = 'c' AND p.probin = '$libdir/uuidx'
              AND p.prosrc IN (SELECT 'uuidx_' || regexp_replace(p.proname, '^uuidx?_', '')
                                      || coalesce('_' || (SELECT string_agg(t.typname, '_' ORDER BY a.n)
                                                           FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(typ, n)
                                                           JOIN pg_type t ON t.oid = a.typ
                                                          WHERE a.n > p.pronargs - k), '')
                                 FROM generate_series(0, p.pronargs) k)
       END
 ORDER BY 1::text
$$;
COMMENT ON FUNCTION uuidx_check_members() IS
'the functions of uuidx and uuidx_core18 replaced from outside (CREATE OR REPLACE FUNCTION), one row each';
