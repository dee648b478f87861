-- pg_uuidv7 compatibility: same names, signatures and results.

SELECT uuid_v7_to_timestamptz('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS tstz,
       uuid_v7_to_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS ts;
-- not a v7: NULL rather than a time read from bits that hold none
SELECT uuid_v7_to_timestamptz('919108f7-52d1-4320-9bac-f847db4148a8') IS NULL AS v4_null,
       uuid_v7_to_timestamp('00000000-0000-0000-0000-000000000000') IS NULL AS nil_null;

-- zero = true gives the all-zero v7 of that millisecond
SELECT uuid_timestamptz_to_v7('2022-02-22 19:22:22.123456+00', true) AS tstz_zero,
       uuid_timestamp_to_v7('2022-02-22 19:22:22.123456', true) AS ts_zero;
-- otherwise random bits after the millisecond
SELECT uuid_version(u) AS version, uuid_variant(u) AS variant,
       uuid_v7_to_timestamptz(u) = '2022-02-22 19:22:22.123+00' AS same_ms,
       u <> uuid_timestamptz_to_v7('2022-02-22 19:22:22.123+00') AS random
FROM (SELECT uuid_timestamptz_to_v7('2022-02-22 19:22:22.123456+00') AS u) s;
SELECT count(DISTINCT uuid_timestamp_to_v7('2000-01-01 00:00:00')) AS distinct_values
FROM generate_series(1, 1000);
-- round trips
SELECT uuid_v7_to_timestamptz(uuid_timestamptz_to_v7(t)) = date_trunc('milliseconds', t) AS tstz_round_trip,
       uuid_v7_to_timestamp(uuid_timestamp_to_v7(t::timestamp)) = date_trunc('milliseconds', t::timestamp) AS ts_round_trip
FROM (SELECT '2024-06-30 23:59:59.9999+00'::timestamptz AS t) s;
-- pg_uuidv7's uuid_generate_v7() is uuidx's
SELECT uuid_version(uuid_generate_v7()) AS version;
-- range checks where pg_uuidv7 would wrap
SELECT uuid_timestamptz_to_v7('1969-12-31 23:59:59+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_timestamp_to_v7('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_timestamptz_to_v7('20000-01-01 00:00:00+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_timestamptz_to_v7(NULL) IS NULL AS strict_1, uuid_timestamptz_to_v7(now(), NULL) IS NULL AS strict_2;
SELECT uuid_timestamp_to_v7(NULL) IS NULL AS strict_3, uuid_timestamp_to_v7(localtimestamp, NULL) IS NULL AS strict_4,
       uuid_v7_to_timestamptz(NULL) IS NULL AS strict_5, uuid_v7_to_timestamp(NULL) IS NULL AS strict_6;
