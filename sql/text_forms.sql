-- TypeID (uuid_to_typeid, typeid_to_uuid, typeid_prefix), base32hex
-- (uuid_to_base32hex, base32hex_to_uuid) and PostgreSQL 19's casts between
-- uuid and bytea, which uuidx makes on 15 to 18 (core's serve on 19).

-- A fault's SQLSTATE, message and detail, or 'accepted' and the result.
CREATE FUNCTION pg_temp.fault(call text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  r text;
  state text;
  msg text;
  detail text;
BEGIN
  EXECUTE 'SELECT (' || call || ')::text' INTO r;
  RETURN 'accepted: ' || r;
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
  RETURN state || ' ' || msg || ' / ' || detail;
END $$;

-- TypeID's test vectors: spec/valid.yml and spec/invalid.yml of
-- github.com/jetify-com/typeid (spec v0.3.0, files of 2024-04-10 and
-- their two later invalid cases; Apache License 2.0), as data.  Each valid
-- one decodes to its prefix and UUID, and its prefix and UUID encode to it.
CREATE TEMP TABLE typeid_valid (name text, typeid text, prefix text, id uuid);
INSERT INTO typeid_valid VALUES
  ('nil',               '00000000000000000000000000',         '',        '00000000-0000-0000-0000-000000000000'),
  ('one',               '00000000000000000000000001',         '',        '00000000-0000-0000-0000-000000000001'),
  ('ten',               '0000000000000000000000000a',         '',        '00000000-0000-0000-0000-00000000000a'),
  ('sixteen',           '0000000000000000000000000g',         '',        '00000000-0000-0000-0000-000000000010'),
  ('thirty-two',        '00000000000000000000000010',         '',        '00000000-0000-0000-0000-000000000020'),
  ('max-valid',         '7zzzzzzzzzzzzzzzzzzzzzzzzz',         '',        'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  ('valid-alphabet',    'prefix_0123456789abcdefghjkmnpqrs',  'prefix',  '0110c853-1d09-52d8-d73e-1194e95b5f19'),
  ('valid-uuidv7',      'prefix_01h455vb4pex5vsknk084sn02q',  'prefix',  '01890a5d-ac96-774b-bcce-b302099a8057'),
  ('prefix-underscore', 'pre_fix_00000000000000000000000000', 'pre_fix', '00000000-0000-0000-0000-000000000000');
SELECT name, typeid_to_uuid(typeid) = id AS decodes, typeid_prefix(typeid) = prefix AS prefix,
       uuid_to_typeid(prefix, id) = typeid AS encodes, typeid_to_uuid(typeid, prefix) = id AS checked
FROM typeid_valid ORDER BY name;

-- Each invalid one is refused, by typeid_to_uuid() and by typeid_prefix(),
-- with 22P02 and a detail that names the rule.
CREATE TEMP TABLE typeid_invalid (name text, typeid text);
INSERT INTO typeid_invalid VALUES
  ('prefix-uppercase',           'PREFIX_00000000000000000000000000'),
  ('prefix-numeric',             '12345_00000000000000000000000000'),
  ('prefix-period',              'pre.fix_00000000000000000000000000'),
  ('prefix-non-ascii',           'préfix_00000000000000000000000000'),
  ('prefix-spaces',              '  prefix_00000000000000000000000000'),
  ('prefix-64-chars',            'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000'),
  ('separator-empty-prefix',     '_00000000000000000000000000'),
  ('separator-empty',            '_'),
  ('suffix-short',               'prefix_1234567890123456789012345'),
  ('suffix-long',                'prefix_123456789012345678901234567'),
  ('suffix-spaces',              'prefix_1234567890123456789012345 '),
  ('suffix-uppercase',           'prefix_0123456789ABCDEFGHJKMNPQRS'),
  ('suffix-hyphens',             'prefix_123456789-123456789-123456'),
  ('suffix-wrong-alphabet',      'prefix_ooooooiiiiiiuuuuuuulllllll'),
  ('suffix-ambiguous-crockford', 'prefix_i23456789ol23456789oi23456'),
  ('suffix-hyphens-crockford',   'prefix_123456789-0123456789-0123456'),
  ('suffix-overflow',            'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz'),
  ('prefix-underscore-start',    '_prefix_00000000000000000000000000'),
  ('prefix-underscore-end',      'prefix__00000000000000000000000000'),
  ('empty',                      ''),
  ('prefix-empty',               'prefix_');
SELECT name, pg_temp.fault(format('typeid_to_uuid(%L)', typeid)) AS typeid_to_uuid
FROM typeid_invalid ORDER BY name;
SELECT count(*) AS invalid, count(*) FILTER (WHERE pg_temp.fault(format('typeid_prefix(%L)', typeid)) LIKE '22P02 %') AS prefix_refused
FROM typeid_invalid;

-- A prefix given as an argument: the same rules, 22023; the prefix check.
SELECT p, pg_temp.fault(format('uuid_to_typeid(%L, %L)', p, '01890a5d-ac96-774b-bcce-b302099a8057')) AS uuid_to_typeid
FROM unnest(ARRAY['user', 'order_item', '', 'User', 'user_', '_user', 'us3r', repeat('a', 63), repeat('a', 64)]) p;
SELECT pg_temp.fault($$typeid_to_uuid('01h455vb4pex5vsknk084sn02')$$) AS short_without_prefix;
SELECT pg_temp.fault($$typeid_to_uuid('user_01h455vb4pex5vsknk084sn02q', 'order')$$) AS other_prefix,
       pg_temp.fault($$typeid_to_uuid('01h455vb4pex5vsknk084sn02q', 'order')$$) AS no_prefix,
       pg_temp.fault($$typeid_to_uuid('user_01h455vb4pex5vsknk084sn02q', '')$$) AS none_expected,
       pg_temp.fault($$typeid_to_uuid('user_01h455vb4pex5vsknk084sn02q', 'Order')$$) AS bad_expected;
-- ULID keeps its aliases and case; TypeID, the same bits, takes neither.
SELECT ulid_to_uuid('01H455VB4PEX5VSKNK084SN02Q') = typeid_to_uuid('01h455vb4pex5vsknk084sn02q') AS same_bits,
       lower(uuid_to_ulid('01890a5d-ac96-774b-bcce-b302099a8057')) = uuid_to_typeid('', '01890a5d-ac96-774b-bcce-b302099a8057') AS lower_ulid,
       ulid_to_uuid('0IH455VB4PEX5VSKNK084SN02Q') IS NOT NULL AS ulid_alias,
       pg_temp.fault($$typeid_to_uuid('0ih455vb4pex5vsknk084sn02q')$$) AS typeid_alias;

-- 100,000 UUIDs of every kind come back both ways; the TypeIDs of v7 keys
-- with one prefix sort as the keys do (COLLATE "C"), and so do the
-- base32hex texts of every key.
CREATE TEMP TABLE keys AS
  SELECT u, uuid_to_typeid('user', u) AS t, uuid_to_base32hex(u) AS h
  FROM (SELECT CASE g % 3 WHEN 0 THEN gen_random_uuid() WHEN 1 THEN uuid_generate_v7() ELSE uuid_generate_v6() END AS u
        FROM generate_series(1, 100000) g) s;
SELECT count(*) AS values,
       count(*) FILTER (WHERE typeid_to_uuid(t) = u AND typeid_to_uuid(t, 'user') = u) AS typeid_round_trips,
       count(*) FILTER (WHERE t ~ '^user_[0-7][0-9a-hjkmnp-tv-z]{25}$') AS typeid_well_formed,
       count(*) FILTER (WHERE base32hex_to_uuid(h) = u AND base32hex_to_uuid(lower(h)) = u
                          AND base32hex_to_uuid(h || '======') = u) AS base32hex_round_trips,
       count(*) FILTER (WHERE h ~ '^[0-9A-V]{25}[048CGKOS]$') AS base32hex_well_formed
FROM keys;
SELECT count(*) FILTER (WHERE t COLLATE "C" <= prev_t COLLATE "C") AS typeid_v7_out_of_order
FROM (SELECT t, lag(t) OVER (ORDER BY u) AS prev_t FROM keys WHERE uuid_version(u) = 7) s;
SELECT count(*) FILTER (WHERE h COLLATE "C" <= prev_h COLLATE "C") AS base32hex_out_of_order,
       count(*) FILTER (WHERE lower(h) COLLATE "C" <= lower(prev_h) COLLATE "C") AS lower_out_of_order
FROM (SELECT h, lag(h) OVER (ORDER BY u) AS prev_h FROM keys) s;
-- Each of the 128 bits alone: 128 different texts of each, each coming
-- back.
SELECT count(DISTINCT uuid_to_typeid('', u)) AS typeids, count(DISTINCT uuid_to_base32hex(u)) AS base32hexes,
       bool_and(typeid_to_uuid(uuid_to_typeid('', u)) = u AND base32hex_to_uuid(uuid_to_base32hex(u)) = u) AS round_trips
FROM (SELECT overlay(repeat('0', 32) PLACING to_hex(8 >> (i % 4)) FROM i / 4 + 1 FOR 1)::uuid AS u
      FROM generate_series(0, 127) i) s;

-- base32hex: RFC 4648's test of section 10 is for bytes; a UUID's first 26
-- characters are encode()'s on 19 (test/t/014_independent.pl compares
-- them there, and with npm's base32-encode).
SELECT uuid_to_base32hex('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_to_base32hex('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max,
       uuid_to_base32hex('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11') AS example;
SELECT s, pg_temp.fault(format('base32hex_to_uuid(%L)', s)) AS base32hex_to_uuid
FROM unnest(ARRAY['K3NBP6CS1D7FHERDDESRQE0A2', 'K3NBP6CS1D7FHERDDESRQE0A25', 'K3NBP6CS1D7FHERDDESRQE0AW4',
                  'K3NBP6CS1D7FHERDDESRQE0A24=====', 'K3NBP6CS1D7FHERDDESRQE0A2é', 'K3NBP6CS1D7FHERDDESRQE0A24 ',
                  'K3NBP6CS1D7FHERDDESRQE0A240=====']) s;

-- The casts, as 19 has them: explicit only; 16 bytes each way.
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::bytea AS to_bytea,
       '\xa0eebc999c0b4ef8bb6d6bb9bd380a11'::bytea::uuid AS to_uuid,
       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::bytea = uuid_send('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11') AS as_sent,
       (SELECT bool_and(u::bytea::uuid = u) FROM keys) AS round_trips;
SELECT b, pg_temp.fault(format('%L::bytea::uuid', b)) AS to_uuid
FROM unnest(ARRAY['\x', '\x0102', '\xa0eebc999c0b4ef8bb6d6bb9bd380a1100']) b;
SELECT castsource::regtype, casttarget::regtype, castcontext, castmethod,
       (SELECT proleakproof FROM pg_proc WHERE oid = castfunc) AS leakproof
FROM pg_cast WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype))
ORDER BY castsource::regtype::text DESC;
SELECT split_part(pg_temp.fault($$(SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid || '\x00'::bytea)$$), ' / ', 1) AS no_implicit_cast;

-- typeid_to_uuid() of a constant is a constant: the key's index serves it.
CREATE TEMP TABLE accounts (id uuid PRIMARY KEY);
INSERT INTO accounts SELECT uuid_generate_v7() FROM generate_series(1, 1000);
ANALYZE accounts;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM accounts WHERE id = typeid_to_uuid('user_01h455vb4pex5vsknk084sn02q', 'user');
RESET enable_seqscan;
SELECT count(*) AS found FROM accounts a
WHERE a.id = typeid_to_uuid((SELECT uuid_to_typeid('user', id) FROM accounts ORDER BY id OFFSET 500 LIMIT 1), 'user');
-- Immutable, strict, parallel safe; uuid_to_base32hex() and uuid -> bytea,
-- which never fail, leakproof.
SELECT proname, pg_get_function_identity_arguments(oid) AS args, provolatile, proisstrict, proparallel, proleakproof
FROM pg_proc
WHERE proname IN ('uuid_to_typeid', 'typeid_to_uuid', 'typeid_prefix', 'uuid_to_base32hex', 'base32hex_to_uuid',
                  'uuidx_uuid_to_bytea', 'uuidx_bytea_to_uuid')
ORDER BY 1, 2;
