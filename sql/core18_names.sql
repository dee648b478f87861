-- uuidx_core18: PostgreSQL 18's names on 15, 16 and 17 (and on 18, where
-- only schema-qualified calls reach them), backed by uuidx.
--
-- Expected output per major: core18_names.out (15, 16), _1 (17: core's
-- uuid_extract_* come first in the search path, and its
-- uuid_extract_timestamp() reads v1 keys only), _2 (18: all five of core's
-- come first).
CREATE EXTENSION uuidx_core18;
SET TimeZone = 'UTC';

-- The five, with 18's signatures and attributes (pg_proc.dat of 18:
-- volatility, strictness, parallel safety, leakproofness, argument names),
-- in the extension's schema.
SELECT p.oid::regprocedure AS function, p.prorettype::regtype AS returns,
       p.provolatile, p.proisstrict, p.proparallel, p.proleakproof, p.proargnames
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidx_core18') AND d.deptype = 'e'
ORDER BY 1::text;
-- Core 18's own, where this server has them: the same attributes.
SELECT count(*) AS core_functions,
       count(*) FILTER (WHERE NOT EXISTS (
           SELECT FROM pg_proc o
           WHERE o.pronamespace = 'public'::regnamespace AND o.proname = c.proname
             AND o.proargtypes = c.proargtypes AND o.prorettype = c.prorettype
             AND o.provolatile = c.provolatile AND o.proisstrict = c.proisstrict
             AND o.proparallel = c.proparallel AND o.proleakproof = c.proleakproof
             AND o.proargnames IS NOT DISTINCT FROM c.proargnames)) AS differing
FROM pg_proc c
WHERE c.pronamespace = 'pg_catalog'::regnamespace
  AND c.proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version');
-- What an unqualified call reaches with the default search path.
SELECT f AS call, (SELECT pronamespace::regnamespace FROM pg_proc WHERE oid = to_regprocedure(f)) AS reaches
FROM (VALUES ('uuidv7()'), ('uuidv7(interval)'), ('uuidv4()'),
             ('uuid_extract_timestamp(uuid)'), ('uuid_extract_version(uuid)')) v(f);
-- ... and what it reads: on 17, core's uuid_extract_timestamp() reads v1
-- keys only, so a v7 key's time is NULL there (uuid_timestamp() reads it).
SELECT uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS v7_vector_time,
       uuid_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS uuidx_reads;

-- PostgreSQL 18's regression statements for these functions
-- (src/test/regress/sql/uuid.sql of 18.6), run against the extension's
-- functions: its schema first in the search path.
SET search_path = public, pg_catalog;
CREATE TABLE guid1 (guid_field UUID, text_field TEXT DEFAULT(now()));
CREATE TABLE guid3 (id SERIAL, guid_field UUID);

-- test of uuidv4() alias
TRUNCATE guid1;
INSERT INTO guid1 (guid_field) VALUES (uuidv4());
INSERT INTO guid1 (guid_field) VALUES (uuidv4());
SELECT count(DISTINCT guid_field) FROM guid1;

-- generation test for v7
TRUNCATE guid1;
INSERT INTO guid1 (guid_field) VALUES (uuidv7());
INSERT INTO guid1 (guid_field) VALUES (uuidv7());
INSERT INTO guid1 (guid_field) VALUES (uuidv7(INTERVAL '1 day'));
SELECT count(DISTINCT guid_field) FROM guid1;

-- test sortability of v7
INSERT INTO guid3 (guid_field) SELECT uuidv7() FROM generate_series(1, 10);
SELECT array_agg(id ORDER BY guid_field) FROM guid3;

-- Check the timestamp offsets for v7.  (Translated: 15 wants an alias for
-- the subquery in FROM, "s".)
--
-- generate UUIDv7 values with timestamps ranging from 1970 (the Unix epoch year)
-- to 10888 (one year before the maximum possible year), and then verify that
-- the extracted timestamps from these UUIDv7 values have not overflowed.
WITH uuidts AS (
    SELECT y, ts as ts, lag(ts) OVER (ORDER BY y) AS prev_ts
    FROM (SELECT y, uuid_extract_timestamp(uuidv7((y || ' years')::interval)) AS ts
        FROM generate_series(1970 - extract(year from now())::int, 10888 - extract(year from now())::int) y) s
)
SELECT y, ts, prev_ts FROM uuidts WHERE ts < prev_ts;

-- uuidv7: infinite intervals are rejected (15 and 16 have none: their
-- interval input refuses 'infinity').  These errors and the two below are
-- 18.6's, SQLSTATE (shown after the last), message and detail.
SELECT uuidv7('infinity'::interval);
SELECT uuidv7('-infinity'::interval);

-- uuidv7: timestamps before Unix epoch are rejected
SELECT uuidv7('-1000 years'::interval);

-- uuidv7: timestamps beyond 48-bit ms field (~year 10889) are rejected
SELECT uuidv7('9000 years'::interval);
\echo :LAST_ERROR_SQLSTATE

-- uuidv7: a large but in-range forward shift is accepted
SELECT uuid_extract_timestamp(uuidv7('1000 years'::interval)) > now() + '999 years'::interval;

-- extract functions

-- version
SELECT uuid_extract_version('11111111-1111-5111-8111-111111111111');  -- 5
SELECT uuid_extract_version(gen_random_uuid());  -- 4
SELECT uuid_extract_version('11111111-1111-1111-1111-111111111111');  -- null
SELECT uuid_extract_version(uuidv4());  -- 4
SELECT uuid_extract_version(uuidv7());  -- 7

-- timestamp
SELECT uuid_extract_timestamp('C232AB00-9414-11EC-B3C8-9F6BDECED846') = 'Tuesday, February 22, 2022 2:22:22.00 PM GMT+05:00';  -- RFC 9562 test vector for v1
SELECT uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') = 'Tuesday, February 22, 2022 2:22:22.00 PM GMT+05:00';  -- RFC 9562 test vector for v7
SELECT uuid_extract_timestamp(gen_random_uuid());  -- null
SELECT uuid_extract_timestamp('11111111-1111-1111-1111-111111111111');  -- null

-- (end of 18's statements)
DROP TABLE guid1, guid3 CASCADE;

-- Beyond 18's statements: 18 reads no v6 time (uuid_timestamp() does), and
-- no time or version of a UUID of another variant.
SELECT uuid_extract_timestamp(uuid_generate_v6()) AS v6_time,
       uuid_timestamp(uuid_generate_v6()) IS NOT NULL AS uuid_timestamp_reads_v6,
       uuid_extract_timestamp('017f22e2-79b0-7cc3-18c4-dc0c0c07398f') AS v7_of_ncs_variant,
       uuid_extract_version('017f22e2-79b0-7cc3-18c4-dc0c0c07398f') AS version_of_ncs_variant;
-- uuidv7() is uuid_generate_v7(): one strictly increasing sequence across
-- both names.
SELECT count(*) AS values,
       count(*) FILTER (WHERE u <= prev) AS not_increasing,
       count(DISTINCT uuid_version(u)) = 1 AND min(uuid_version(u)) = 7 AS all_v7
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev
      FROM (SELECT n, CASE WHEN n % 2 = 0 THEN uuidv7() ELSE uuid_generate_v7() END AS u
            FROM generate_series(1, 10000) n) s) t;
-- The shift: uuidv7(s) is uuid_generate_v7(s) to the millisecond.
SELECT abs(extract(epoch FROM uuid_extract_timestamp(uuidv7(interval '-2 days'))
                               - (now() - interval '2 days'))) < 60 AS shifted;
-- Time queries written with it use the key's index, as with uuid_timestamp():
-- on a column whose keys are declared v7 (18's function reads v1 keys too),
-- here as code for 18 declares them, with uuid_extract_version().
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuidv7() CHECK (uuid_extract_version(id) = 7), n int);
INSERT INTO events SELECT uuidv7(interval '-2 days'), g FROM generate_series(1, 2000) g;
INSERT INTO events (n) SELECT g FROM generate_series(1, 10) g;
ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour';
SELECT count(*) AS last_hour FROM events WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour';
DROP TABLE events;
-- uuidx_check_members() covers these five too: none replaced, then one
-- re-created with another C function of uuidx's library.
SELECT count(*) AS replaced FROM uuidx_check_members();
BEGIN;
CREATE OR REPLACE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
  AS '$libdir/uuidx', 'uuidx_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
SELECT member, extension, note FROM uuidx_check_members();
ROLLBACK;
RESET search_path;
DROP EXTENSION uuidx_core18;

-- Trusted, as uuidx is: a database owner who may create schemas installs it.
CREATE ROLE core18_owner;
SELECT format('GRANT CREATE ON DATABASE %I TO core18_owner', current_database()) AS grant_create \gset
:grant_create;
SET ROLE core18_owner;
CREATE SCHEMA core18_s;
CREATE EXTENSION uuidx_core18 SCHEMA core18_s;
SELECT uuid_version(core18_s.uuidv7()) AS v7_as_owner;
DROP EXTENSION uuidx_core18;
DROP SCHEMA core18_s;
RESET ROLE;
SELECT format('REVOKE CREATE ON DATABASE %I FROM core18_owner', current_database()) AS revoke_create \gset
:revoke_create;
DROP ROLE core18_owner;

-- uuidx_core18 needs uuidx at SQL 1.4 or later: an older one is refused,
-- saying what to run.
CREATE DATABASE regress_core18_old;
\c regress_core18_old
CREATE EXTENSION uuidx VERSION '1.3.3';
\set SHOW_CONTEXT never
CREATE EXTENSION uuidx_core18;
\set SHOW_CONTEXT errors
ALTER EXTENSION uuidx UPDATE;
CREATE EXTENSION uuidx_core18;
SELECT uuid_extract_version(uuidv7()) AS v7_after_update;
\c contrib_regression
DROP DATABASE regress_core18_old;
