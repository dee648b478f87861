-- Every function's volatility, strictness, parallel safety and leakproofness,
-- and no clash with core functions.

SELECT p.oid::regprocedure AS function,
       p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel, p.proleakproof AS leakproof,
       p.prosecdef AS security_definer
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
ORDER BY p.proname, p.oid::regprocedure::text;

-- No uuidx function has the name and argument types of a pg_catalog
-- function of this server ...
SELECT p.oid::regprocedure AS clash
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
JOIN pg_proc c ON c.pronamespace = 'pg_catalog'::regnamespace
              AND c.proname = p.proname AND c.proargtypes = p.proargtypes;
-- ... nor the name of a uuid function of PostgreSQL 15 to 18 and master.
SELECT p.proname AS clash
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
WHERE p.proname IN ('gen_random_uuid', 'uuidv4', 'uuidv7', 'uuid_extract_timestamp',
                    'uuid_extract_version', 'uuid_in', 'uuid_out', 'uuid_send', 'uuid_recv',
                    'uuid_cmp', 'uuid_eq', 'uuid_ne', 'uuid_lt', 'uuid_le', 'uuid_gt', 'uuid_ge',
                    'uuid_hash', 'uuid_hash_extended', 'uuid_sortsupport');

-- The extension is trusted and relocatable, and nothing is SECURITY DEFINER.
SELECT extname, extrelocatable, extversion FROM pg_extension WHERE extname = 'uuidx';
SELECT trusted FROM pg_available_extension_versions WHERE name = 'uuidx';
