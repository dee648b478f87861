-- uuid_to_ulid(uuid) and ulid_to_uuid(text): the 128 bits as 26 characters
-- of Crockford's base32 and back, bytes kept both ways.

SELECT uuid_to_ulid('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_to_ulid('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max,
       uuid_to_ulid('01890a5d-ac96-774b-bcce-b302099a8057') AS v7;
SELECT ulid_to_uuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS max,
       ulid_to_uuid('01H455VB4PEX5VSKNK084SN02Q') AS upper_case,
       ulid_to_uuid('01h455vb4pex5vsknk084sn02q') AS lower_case;
-- Each of the 128 bits alone: 128 different ULIDs, each coming back.
SELECT count(*) AS single_bits, count(DISTINCT t) AS distinct_ulids, bool_and(ulid_to_uuid(t) = u) AS round_trip
FROM (SELECT u, uuid_to_ulid(u) AS t
      FROM (SELECT overlay(repeat('0', 32) PLACING to_hex(8 >> (i % 4)) FROM i / 4 + 1 FOR 1)::uuid AS u
            FROM generate_series(0, 127) i) s) s;

-- 100,000 UUIDs of every kind come back exactly, and ULID text sorts as
-- the UUIDs do (C collation).
CREATE TEMP TABLE ulids AS
  SELECT u, uuid_to_ulid(u) AS t
  FROM (SELECT CASE g % 3 WHEN 0 THEN gen_random_uuid() WHEN 1 THEN uuid_generate_v7() ELSE uuid_generate_v6() END AS u
        FROM generate_series(1, 100000) g) s;
SELECT count(*) AS values,
       count(*) FILTER (WHERE ulid_to_uuid(t) = u) AS round_trips,
       count(*) FILTER (WHERE ulid_to_uuid(lower(t)) = u) AS lower_case_round_trips,
       count(*) FILTER (WHERE length(t) = 26 AND t ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$') AS well_formed
FROM ulids;
SELECT count(*) AS out_of_order
FROM (SELECT t, lag(t) OVER (ORDER BY u) AS prev FROM ulids) s
WHERE t COLLATE "C" <= prev COLLATE "C";
-- A v7's ULID begins with its millisecond, in 10 characters.
SELECT count(*) FILTER (WHERE left(uuid_to_ulid(u), 10) = left(uuid_to_ulid(uuid_v7_lower_bound(uuid_timestamp(u))), 10)) = count(*) AS time_prefix
FROM ulids WHERE uuid_version(u) = 7;

-- Crockford's aliases: I and L read as 1, O as 0, in either case, also
-- in the first character; output is the alphabet in upper case.
SELECT ulid_to_uuid('01H455VB4PEX5VSKNK084SN0IQ') = ulid_to_uuid('01H455VB4PEX5VSKNK084SN01Q') AS i_is_1,
       ulid_to_uuid('01H455VB4PEX5VSKNK084SN0lQ') = ulid_to_uuid('01H455VB4PEX5VSKNK084SN01Q') AS l_is_1,
       ulid_to_uuid('o1H455VB4PEX5VSKNK084SNOOQ') = ulid_to_uuid('01H455VB4PEX5VSKNK084SN00Q') AS o_is_0,
       uuid_to_ulid(ulid_to_uuid('i1h455vb4pex5vsknk084sn0lq')) AS canonical;

-- Errors: 22P02, naming the text.
SELECT ulid_to_uuid('01H455VB4PEX5VSKNK084SN02');
SELECT ulid_to_uuid('01H455VB4PEX5VSKNK084SN02QQ');
SELECT ulid_to_uuid('81H455VB4PEX5VSKNK084SN02Q');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_to_uuid('01H455VB4PEX5VSKNK084SN0UQ');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_to_uuid('01H455VB4PEX5VSKNK084SN0-Q');
SELECT ulid_to_uuid('01H455VB4PEX5VSKNK084SN0éQ');
SELECT ulid_to_uuid('');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_to_uuid(NULL) AS null_text;
