-- uuid_generate_v8(), the name-based v8 and uuid_v8_from_parts().

-- Time-ordered v8.  Layout: 48-bit Unix ms | ver 8 | counter high 12 |
-- var 10 | counter low 4 | node id 16 | random 42.
CREATE FUNCTION v8_node(u uuid) RETURNS integer LANGUAGE sql IMMUTABLE AS
$$ SELECT ((('x' || substr(replace(u::text, '-', ''), 17, 8))::bit(32)::bigint >> 10) & 65535)::integer $$;
CREATE FUNCTION v8_ms(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE AS
$$ SELECT ('x' || lpad(substr(replace(u::text, '-', ''), 1, 12), 16, '0'))::bit(64)::bigint $$;

SHOW uuidx.node_id;
CREATE TEMP TABLE v8 AS
  SELECT n, uuid_generate_v8() AS u FROM generate_series(1, 50000) AS n;
SELECT count(DISTINCT u) AS distinct_values,
       bool_and(uuid_version(u) = 8) AS all_version_8,
       bool_and(uuid_variant(u) = 2) AS all_rfc_variant,
       bool_and(abs(v8_ms(u) - extract(epoch FROM clock_timestamp()) * 1000) < 60000) AS ms_is_unix_time,
       count(DISTINCT v8_node(u)) > 10000 AS unset_node_id_is_random,
       bool_and(uuid_v8_node_id(u) = v8_node(u)) AS node_id_read_back
FROM v8;
SELECT count(*) AS out_of_order
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM v8) s
WHERE u <= prev;
DROP TABLE v8;

SET uuidx.node_id = 4660;  -- 0x1234
SELECT count(DISTINCT u) AS distinct_values,
       bool_and(v8_node(u) = 4660) AS node_id_in_bits_70_to_85,
       bool_and(uuid_v8_node_id(u) = 4660) AS node_id_read_back
FROM (SELECT uuid_generate_v8() AS u FROM generate_series(1, 10000)) s;
SET uuidx.node_id = 65535;
SELECT v8_node(u) AS node, uuid_v8_node_id(u) AS read_back FROM (SELECT uuid_generate_v8() AS u) s;
SET uuidx.node_id = 0;
SELECT v8_node(u) AS node, uuid_v8_node_id(u) AS read_back FROM (SELECT uuid_generate_v8() AS u) s;
-- uuid_v8_node_id() reads bits 70-85 of any v8 (of uuid_v8_from_parts,
-- custom_c's bits 4-19), and gives NULL for every other version and
-- variant.
SELECT uuid_v8_node_id(uuid_v8_from_parts(0, 0, (43981::bigint << 42) | 1234)) AS from_parts,
       uuid_v8_node_id('00000000-0000-8000-83ff-fc0000000000') AS all_ones,
       uuid_v8_node_id('00000000-0000-8000-8300-000000000000') AS top_two_bits,
       uuid_v8_node_id('00000000-0000-8000-8000-fc0000000000') AS low_six_bits,
       uuid_v8_node_id('ffffffff-ffff-8fff-bc00-03ffffffffff') AS all_other_bits;
SELECT uuid_v8_node_id(uuid_generate_v7()) AS v7, uuid_v8_node_id(gen_random_uuid()) AS v4,
       uuid_v8_node_id('00000000-0000-8000-0000-000000000000') AS ncs_variant,
       uuid_v8_node_id('00000000-0000-8000-c000-000000000000') AS microsoft_variant,
       uuid_v8_node_id(NULL) AS null_input;
SET uuidx.node_id = 65536;
SET uuidx.node_id = -2;
RESET uuidx.node_id;
SHOW uuidx.node_id;
-- other settings under the uuidx prefix are refused
SET uuidx.nodeid = 1;
-- an ordinary user may not set it (see also security.sql)
SELECT context FROM pg_settings WHERE name = 'uuidx.node_id';

-- Name-based, RFC 9562 Appendix B.2: SHA-256 over DNS namespace + name.
SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com');
SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'::bytea);
-- rfc4122bis-12 hashspace form (SHA2_256 hashspace).
SELECT uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d',
                             '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com');
SELECT uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d',
                             '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'::bytea);
-- Every supported hashspace agrees with core's sha224/256/384/512(), over
-- hashspace || namespace || name, for many names; the two-argument form is
-- SHA-256 over namespace || name.
CREATE FUNCTION v8_from_digest(d bytea) RETURNS uuid LANGUAGE sql IMMUTABLE AS
$$ SELECT encode(set_byte(set_byte(substr(d, 1, 16), 6, (get_byte(d, 6) & 15) | 128),
                          8, (get_byte(d, 8) & 63) | 128), 'hex')::uuid $$;
CREATE FUNCTION uuid_bytes(u uuid) RETURNS bytea LANGUAGE sql IMMUTABLE AS
$$ SELECT decode(replace(u::text, '-', ''), 'hex') $$;
SELECT hs.name,
       bool_and(uuid_generate_v8_name(h, ns, n) = v8_from_digest(
           CASE hs.name WHEN 'SHA2_224' THEN sha224(uuid_bytes(h) || uuid_bytes(ns) || convert_to(n, 'UTF8'))
                        WHEN 'SHA2_256' THEN sha256(uuid_bytes(h) || uuid_bytes(ns) || convert_to(n, 'UTF8'))
                        WHEN 'SHA2_384' THEN sha384(uuid_bytes(h) || uuid_bytes(ns) || convert_to(n, 'UTF8'))
                        ELSE sha512(uuid_bytes(h) || uuid_bytes(ns) || convert_to(n, 'UTF8')) END)) AS agrees
FROM (VALUES ('59031ca3-fbdb-47fb-9f6c-0f30e2e83145'::uuid, 'SHA2_224'),
             ('3fb32780-953c-4464-9cfd-e85dbbe9843d'::uuid, 'SHA2_256'),
             ('e6800581-f333-484b-8778-601ff2b58da8'::uuid, 'SHA2_384'),
             ('0fde22f2-e7ba-4fd1-9753-9c2ea88fa3f9'::uuid, 'SHA2_512')) AS hs(h, name),
     (VALUES ('6ba7b811-9dad-11d1-80b4-00c04fd430c8'::uuid), (gen_random_uuid())) AS nss(ns),
     (SELECT 'name ' || i AS n FROM generate_series(1, 200) i UNION ALL SELECT '') AS names
GROUP BY hs.name ORDER BY hs.name;
SELECT bool_and(uuid_generate_v8_name(ns, n) = v8_from_digest(sha256(uuid_bytes(ns) || convert_to(n, 'UTF8'))))
       AS two_argument_form_agrees
FROM (VALUES ('6ba7b812-9dad-11d1-80b4-00c04fd430c8'::uuid), (gen_random_uuid())) AS nss(ns),
     (SELECT 'name ' || i AS n FROM generate_series(1, 200) i UNION ALL SELECT '') AS names;
-- text and bytea names agree; an empty name is a name.
SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'ünïcödé')
     = uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', convert_to('ünïcödé', 'UTF8')) AS text_is_its_bytes,
       uuid_version(uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', '')) AS empty_name_version;
-- A text name is hashed as UTF-8 whatever the database encoding: the same
-- name gives the same UUID in a LATIN1 database.
SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'ünïcödé') AS utf8_db,
       uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'ünïcödé') AS utf8_db_hashspace;
CREATE DATABASE regress_latin1_regression ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C';
\c regress_latin1_regression
CREATE EXTENSION uuidx;
SELECT pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = current_database();
SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'ünïcödé') AS latin1_db,
       uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'ünïcödé') AS latin1_db_hashspace;
\c contrib_regression
DROP DATABASE regress_latin1_regression;
-- A SQL_ASCII database gives text no encoding: a name that is valid UTF-8
-- hashes as in any other database; other bytes are an error that points
-- at the bytea form, never a UUID of some guessed encoding.
CREATE DATABASE regress_sqlascii_regression ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C';
\c regress_sqlascii_regression
CREATE EXTENSION uuidx;
SELECT pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = current_database();
SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'ünïcödé') AS sql_ascii_db,
       uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'ünïcödé') AS sql_ascii_db_hashspace;
SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', E'caf\xe9');
SELECT uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', E'caf\xe9');
-- the hint's way out: the LATIN1 bytes converted to UTF-8 give the UUID
-- the name 'café' has as valid UTF-8 text, here and in any database
SELECT convert(convert_to(E'caf\xe9', 'LATIN1'), 'LATIN1', 'UTF8') AS utf8_bytes,
       uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', convert(convert_to(E'caf\xe9', 'LATIN1'), 'LATIN1', 'UTF8'))
     = uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'café') AS same_as_the_text_name;
\c contrib_regression
DROP DATABASE regress_sqlascii_regression;

-- unsupported hashspaces (SHA3_256, and a v4) are refused
SELECT uuid_generate_v8_name('2034d66b-4047-4553-8f80-70e593176877',
                             '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v8_name('00000000-0000-0000-0000-000000000000',
                             '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'x'::bytea);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v8_name(NULL, 'x'::text) IS NULL AS strict_1,
       uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', NULL::text) IS NULL AS strict_2,
       uuid_generate_v8_name(NULL, 'x'::bytea) IS NULL AS strict_3,
       uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', NULL::bytea) IS NULL AS strict_4;
SELECT uuid_generate_v8_name(NULL, '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'x'::text) IS NULL AS hs_strict_1,
       uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', NULL, 'x'::text) IS NULL AS hs_strict_2,
       uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', NULL::text) IS NULL AS hs_strict_3,
       uuid_generate_v8_name(NULL, '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'x'::bytea) IS NULL AS hs_strict_4,
       uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', NULL, 'x'::bytea) IS NULL AS hs_strict_5,
       uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', NULL::bytea) IS NULL AS hs_strict_6;

-- uuid_v8_from_parts: the rfc4122bis-12 time-based v8 test vector.
SELECT uuid_v8_from_parts(x'320C3D4DCC00'::bigint, x'75B'::integer, x'EC932D5F69181C0'::bigint);
-- extremes
SELECT uuid_v8_from_parts(0, 0, 0) AS smallest,
       uuid_v8_from_parts(281474976710655, 4095, 4611686018427387903) AS largest;
-- out of range parts
SELECT uuid_v8_from_parts(-1, 0, 0);
SELECT uuid_v8_from_parts(281474976710656, 0, 0);
SELECT uuid_v8_from_parts(0, 4096, 0);
SELECT uuid_v8_from_parts(0, -1, 0);
SELECT uuid_v8_from_parts(0, 0, 4611686018427387904);
SELECT uuid_v8_from_parts(0, 0, -9223372036854775808);
SELECT uuid_v8_from_parts(NULL, 0, 0) IS NULL AS strict;
