-- uuid_v7_mask(id, key) and uuid_v7_unmask(masked, key): a v7 shown as a
-- version 4 UUID whose first 48 bits are the v7's time XORed with a pad
-- drawn by SipHash-2-4, under the 16-byte key, from the value's other 74
-- bits, which are kept.

-- The pad against SipHash's published vectors (the paper's reference
-- code, vectors for key 00 01 .. 0f): the v7 of time 0 whose 74 kept bits
-- are the message 00 01 .. 09 masks to the top 48 bits of the vector of
-- that 10-byte message, 7a5dbbc594ddb9f3.
SELECT uuid_v7_mask('00000000-0000-7001-8203-040506070809', '\x000102030405060708090a0b0c0d0e0f') AS vector_10;
SELECT uuid_v7_unmask('7a5dbbc5-94dd-4001-8203-040506070809', '\x000102030405060708090a0b0c0d0e0f') AS back;

-- A million v7 values come back exactly; every mask is an RFC 9562
-- version 4 UUID; the 74 kept bits are kept.
CREATE TEMP TABLE masked AS
  SELECT n, u, uuid_v7_mask(u, '\x00112233445566778899aabbccddeeff') AS m
  FROM (SELECT n, uuid_generate_v7() AS u FROM generate_series(1, 1000000) n) s;
SELECT count(*) AS values,
       count(*) FILTER (WHERE uuid_v7_unmask(m, '\x00112233445566778899aabbccddeeff') = u) AS round_trips,
       count(*) FILTER (WHERE uuid_version(m) = 4 AND uuid_variant(m) = 2) AS version_4,
       count(*) FILTER (WHERE substr(m::text, 16, 3) = substr(u::text, 16, 3)
                          AND substr(m::text, 20) = substr(u::text, 20)) AS kept_bits_kept,
       count(DISTINCT m) AS distinct_masks
FROM masked;
-- Consecutive v7 values, in time order, give masks in no order: about half
-- of adjacent pairs ascend.
SELECT count(*) FILTER (WHERE m > prev)::float8 / count(*) BETWEEN 0.45 AND 0.55 AS about_half_ascend
FROM (SELECT m, lag(m) OVER (ORDER BY n) AS prev FROM masked WHERE n <= 100000) s WHERE prev IS NOT NULL;
-- Another key gives other masks, and unmasks to other v7 values: no spare
-- bits tell a wrong key.
SELECT count(*) FILTER (WHERE uuid_v7_mask(u, '\xffeeddccbbaa99887766554433221100') <> m) AS other_masks,
       count(*) FILTER (WHERE uuid_version(uuid_v7_unmask(m, '\xffeeddccbbaa99887766554433221100')) = 7
                          AND uuid_v7_unmask(m, '\xffeeddccbbaa99887766554433221100') <> u) AS other_v7_under_a_wrong_key
FROM masked WHERE n <= 10000;
-- Deterministic: the primary key finds a row from its mask.
CREATE TEMP TABLE orders (id uuid PRIMARY KEY);
INSERT INTO orders SELECT u FROM masked WHERE n <= 10000;
ANALYZE orders;
EXPLAIN (COSTS OFF)
SELECT * FROM orders WHERE id = uuid_v7_unmask('7a5dbbc5-94dd-4001-8203-040506070809', '\x00112233445566778899aabbccddeeff');
SELECT count(*) AS found FROM orders o JOIN masked ON masked.n = 500
WHERE o.id = uuid_v7_unmask(masked.m, '\x00112233445566778899aabbccddeeff');
DROP TABLE masked, orders;

-- Errors: a key of another length, a value of another version or variant.
SELECT uuid_v7_mask(uuid_generate_v7(), '\x0011');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_unmask('7a5dbbc5-94dd-4001-8203-040506070809', '\x00112233445566778899aabbccddeeff00');
SELECT uuid_v7_mask('7a5dbbc5-94dd-4001-8203-040506070809', '\x00112233445566778899aabbccddeeff');
SELECT uuid_v7_mask('00000000-0000-0000-0000-000000000000', '\x00112233445566778899aabbccddeeff');
SELECT uuid_v7_unmask('00000000-0000-7001-8203-040506070809', '\x00112233445566778899aabbccddeeff');
SELECT uuid_v7_unmask('00000000-0000-4001-c203-040506070809', '\x00112233445566778899aabbccddeeff');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_mask(NULL, '\x00112233445566778899aabbccddeeff') AS null_id,
       uuid_v7_unmask('7a5dbbc5-94dd-4001-8203-040506070809', NULL) AS null_key;

-- The key kept out of query text, as docs/masks.md shows: in a table only its
-- owner reads, used by SECURITY DEFINER functions.  The role granted them
-- turns keys into masks and back, and cannot read the key; another role
-- can call neither.
CREATE ROLE regress_uuidx_api;
CREATE ROLE regress_uuidx_other;
CREATE TABLE mask_key (key bytea NOT NULL CHECK (length(key) = 16));
INSERT INTO mask_key SELECT uuid_send(gen_random_uuid());
REVOKE ALL ON mask_key FROM PUBLIC;
CREATE FUNCTION public_id(id uuid) RETURNS uuid
LANGUAGE sql STABLE STRICT SECURITY DEFINER SET search_path = pg_catalog, public
AS $$ SELECT uuid_v7_mask(id, key) FROM mask_key $$;
CREATE FUNCTION private_id(public_id uuid) RETURNS uuid
LANGUAGE sql STABLE STRICT SECURITY DEFINER SET search_path = pg_catalog, public
AS $$ SELECT uuid_v7_unmask(public_id, key) FROM mask_key $$;
REVOKE EXECUTE ON FUNCTION public_id(uuid), private_id(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public_id(uuid), private_id(uuid) TO regress_uuidx_api;
CREATE TABLE api_orders (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), item text);
INSERT INTO api_orders (item) SELECT 'item ' || g FROM generate_series(1, 1000) g;
ANALYZE api_orders;
GRANT SELECT ON api_orders TO regress_uuidx_api;
SET ROLE regress_uuidx_api;
SELECT key FROM mask_key;
SELECT count(*) AS shown_as_v4 FROM api_orders WHERE uuid_version(public_id(id)) = 4;
SELECT item FROM api_orders WHERE id = private_id((SELECT public_id(id) FROM api_orders WHERE item = 'item 500'));
EXPLAIN (COSTS OFF) SELECT item FROM api_orders WHERE id = private_id('7a5dbbc5-94dd-4001-8203-040506070809');
RESET ROLE;
SET ROLE regress_uuidx_other;
SELECT private_id('7a5dbbc5-94dd-4001-8203-040506070809');
SELECT public_id('019aa1a4-5c00-7000-8000-000000000000');
RESET ROLE;
DROP TABLE api_orders, mask_key;
DROP FUNCTION public_id(uuid), private_id(uuid);
DROP ROLE regress_uuidx_api, regress_uuidx_other;
