-- From PostgreSQL 19 on, core has the casts between uuid and bytea:
-- uuidx made none (its uuidx_uuid_to_bytea() and uuidx_bytea_to_uuid()
-- serve no cast).  uuid_to_base32hex() writes the first 26 characters of
-- core's encode(id::bytea, 'base32hex'), which base32hex_to_uuid() reads
-- back.
SELECT castsource::regtype, casttarget::regtype, castfunc::regprocedure, c.oid < 16384 AS core,
       EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_cast'::regclass AND d.objid = c.oid AND d.deptype = 'e') AS member
FROM pg_cast c
WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype))
ORDER BY castsource::regtype::text DESC;
SELECT count(*) AS keys,
       count(*) FILTER (WHERE uuid_to_base32hex(u) = left(encode(u::bytea, 'base32hex'), 26)) AS as_encode,
       count(*) FILTER (WHERE base32hex_to_uuid(encode(u::bytea, 'base32hex')) = u
                          AND decode(uuid_to_base32hex(u), 'base32hex')::uuid = u) AS both_ways
FROM (SELECT CASE g % 4 WHEN 0 THEN gen_random_uuid() WHEN 1 THEN uuid_generate_v7()
                        WHEN 2 THEN uuid_generate_v6() ELSE md5(g::text)::uuid END AS u
      FROM generate_series(1, 100000) g) s;
