-- uuidx 1.6 -> 1.7: upgrade script.  It leaves what sql/uuidx.sql creates
-- (t/008_upgrade.pl compares the two).  Every type referenced is qualified
-- with pg_catalog.

\echo Use "ALTER EXTENSION uuidx UPDATE TO '1.7'" to load this file. \quit

-- TypeID text (spec v0.3.0): a prefix of a-z and "_", "_", then the 128
-- bits as 26 characters of lower-case Crockford base32; as strict as the
-- spec (src/inspect/typeid.c).

CREATE FUNCTION uuid_to_typeid(prefix pg_catalog.text, id pg_catalog.uuid)
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidx_to_typeid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_to_typeid(pg_catalog.text, pg_catalog.uuid) IS
'the UUID as a TypeID with this prefix (none where it is empty)';

CREATE FUNCTION typeid_to_uuid(typeid pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_typeid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_to_uuid(pg_catalog.text) IS
'the UUID of a TypeID, whatever its prefix';

CREATE FUNCTION typeid_to_uuid(typeid pg_catalog.text, prefix pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_typeid_to_uuid_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_to_uuid(pg_catalog.text, pg_catalog.text) IS
'the UUID of a TypeID that has this prefix; an error for any other';

CREATE FUNCTION typeid_prefix(typeid pg_catalog.text)
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidx_typeid_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_prefix(pg_catalog.text) IS
'the prefix of a TypeID (empty where it has none)';

-- base32hex: the 128 bits as 26 characters of RFC 4648's extended hex
-- alphabet, PostgreSQL 19's encode(id::bytea, 'base32hex') without its
-- padding; texts of one case sort as the UUIDs under COLLATE "C".

CREATE FUNCTION uuid_to_base32hex(pg_catalog.uuid)
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidx_to_base32hex'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_to_base32hex(pg_catalog.uuid) IS
'the UUID as 26 characters of base32hex, which sort as the UUIDs do';

CREATE FUNCTION base32hex_to_uuid(pg_catalog.text)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_base32hex_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION base32hex_to_uuid(pg_catalog.text) IS
'the UUID of 26 characters of base32hex (either case, padding allowed)';

-- PostgreSQL 19's explicit casts uuid -> bytea and bytea -> uuid, with its
-- semantics and errors (src/inspect/bytea.c).  The functions are made on
-- every major, named so as not to clash with 19's bytea(uuid) and
-- uuid(bytea); the casts only where the server has none: from 19 on,
-- core's serve (and pg_upgrade from 18 leaves uuidx's out).  A cast made
-- by hand is left as it is, with a WARNING.

CREATE FUNCTION uuidx_uuid_to_bytea(pg_catalog.uuid)
RETURNS pg_catalog.bytea
AS 'MODULE_PATHNAME', 'uuidx_uuid_to_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidx_uuid_to_bytea(pg_catalog.uuid) IS
'the UUID''s 16 bytes: uuid::bytea where the server lacks the cast (before 19)';

CREATE FUNCTION uuidx_bytea_to_uuid(pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidx_bytea_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidx_bytea_to_uuid(pg_catalog.bytea) IS
'the UUID of 16 bytes: bytea::uuid where the server lacks the cast (before 19)';

DO $$
DECLARE
  pair record;
  cast_oid pg_catalog.oid;
BEGIN
  -- (operators named with their schema: the script runs as a superuser
  -- with the target schema first in the search path, where look-alikes of
  -- other argument types would win over pg_catalog's)
  FOR pair IN SELECT * FROM (VALUES ('uuid', 'pg_catalog.uuid'::pg_catalog.regtype::pg_catalog.oid,
                                     'bytea', 'pg_catalog.bytea'::pg_catalog.regtype::pg_catalog.oid),
                                    ('bytea', 'pg_catalog.bytea'::pg_catalog.regtype::pg_catalog.oid,
                                     'uuid', 'pg_catalog.uuid'::pg_catalog.regtype::pg_catalog.oid))
                    p(source, source_oid, target, target_oid) LOOP
    SELECT c.oid INTO cast_oid FROM pg_catalog.pg_cast c
     WHERE c.castsource OPERATOR(pg_catalog.=) pair.source_oid
       AND c.casttarget OPERATOR(pg_catalog.=) pair.target_oid;
    IF cast_oid IS NULL THEN
      EXECUTE pg_catalog.format('CREATE CAST (pg_catalog.%s AS pg_catalog.%s) WITH FUNCTION %I.uuidx_%s_to_%s(pg_catalog.%s)',
                                pair.source, pair.target, pg_catalog.current_schema(), pair.source, pair.target, pair.source);
    ELSIF cast_oid OPERATOR(pg_catalog.>=) 16384::pg_catalog.oid THEN
      RAISE WARNING 'a cast from % to % already exists, which is not the server''s: left as it is', pair.source, pair.target
        USING DETAIL = 'uuidx creates the cast only where there is none.',
              HINT = 'Its meaning may differ from PostgreSQL 19''s, where the server has this cast.';
    END IF;
  END LOOP;
END $$;

-- SQL 1.2's span pieces say in their comments that they are no longer
-- built (src/time_range/earlier_sql.c).

COMMENT ON FUNCTION uuidx_time_span(pg_catalog.uuid, pg_catalog.tstzrange, pg_catalog.bool) IS
'SQL 1.2''s piece of uuid <@ tstzrange, no longer built: the same, as one index range over both versions';
COMMENT ON FUNCTION uuidx_time_span_between(pg_catalog.uuid, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.text, pg_catalog.bool) IS
'SQL 1.2''s piece of uuid <@ tstzrange(lower, upper, bounds), no longer built: as uuidx_time_span, with the range''s parts';
