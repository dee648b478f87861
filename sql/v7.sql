-- uuid_generate_v7(): layout, order, shift, errors.

-- The state is shared by the server (the suite runs with uuidx preloaded).
SELECT generator, scope, storage FROM uuidx_generator_state() ORDER BY generator;

-- 100,000 values from one session: version 7, RFC variant, all distinct,
-- each strictly greater than the one before.
CREATE TEMP TABLE v7 AS
  SELECT n, uuid_generate_v7() AS u FROM generate_series(1, 100000) AS n;
SELECT count(*) AS values,
       count(DISTINCT u) AS distinct_values,
       bool_and(uuid_version(u) = 7) AS all_version_7,
       bool_and(uuid_variant(u) = 2) AS all_rfc_variant,
       bool_and(substr(u::text, 15, 1) = '7') AS version_nibble_is_7,
       bool_and(substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant_bits_are_10
FROM v7;
SELECT count(*) AS out_of_order
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM v7) s
WHERE u <= prev;

-- The embedded time is the clock's millisecond (it runs ahead only when
-- more than 32,768 values are asked for within one millisecond).
SELECT bool_and(uuid_timestamp(u) BETWEEN t0 - interval '1 ms' AND clock_timestamp()) AS time_is_now
FROM (SELECT clock_timestamp() AS t0) c,
     LATERAL (SELECT uuid_generate_v7() AS u FROM generate_series(1, 1000)) g;
SELECT ahead < interval '1 second' AS not_ahead_of_clock
FROM uuidx_generator_state() WHERE generator = 'v7';
-- The state shows the clock as read, and by default no mark in WAL.
SELECT abs(extract(epoch FROM clock_time - clock_timestamp())) < 5 AS clock_time_is_now,
       last_time <= clock_time + ahead AS last_within_ahead,
       NOT wal_logged AS not_in_wal
FROM uuidx_generator_state() WHERE generator = 'v7';
SHOW uuidx.wal_log_mark;

-- The random bits differ between values: 58 of them follow the counter.
SELECT count(DISTINCT substr(u::text, 22)) = count(*) AS random_tails_distinct FROM v7;
-- and are not all zero or all one in any bit position across many values.
SELECT bool_and(ones BETWEEN 1000 AND 9000) AS every_random_bit_varies
FROM (SELECT bit, sum(get_bit(uuid_send(u), bit)) AS ones
      FROM (SELECT u FROM v7 WHERE n <= 10000) s, generate_series(72, 127) AS bit
      GROUP BY bit) b;
DROP TABLE v7;

-- Each millisecond's first counter is random below 32,768, so that the
-- 32,768 values after it still fit the millisecond: the first values of
-- the milliseconds 300,000 values cross (the counter is bits 52-63 and
-- 66-69).
SELECT count(*) >= 20 AS milliseconds, max(c) < 32768 AS below_32768,
       min(c) < 16384 AND max(c) >= 16384 AS both_halves,
       count(DISTINCT c) >= count(*) * 0.9 AS distinct_starts
FROM (SELECT c, ms <> lag(ms) OVER (ORDER BY n) AS first
      FROM (SELECT n, substr(u::text, 1, 13) AS ms,
                   ((get_byte(uuid_send(u), 6) & 15) << 12) | (get_byte(uuid_send(u), 7) << 4)
                   | ((get_byte(uuid_send(u), 8) >> 2) & 15) AS c
            FROM (SELECT n, uuid_generate_v7() AS u FROM generate_series(1, 300000) n) g) s) t
WHERE first;

-- shift: now + shift, same layout; shift '0' is like no shift.
SELECT uuid_version(uuid_generate_v7(interval '1 day')) AS version,
       uuid_timestamp(uuid_generate_v7(interval '1 day')) - now() BETWEEN interval '23 hours' AND interval '25 hours' AS one_day_ahead,
       now() - uuid_timestamp(uuid_generate_v7(interval '-1 year')) BETWEEN interval '360 days' AND interval '370 days' AS one_year_back,
       uuid_generate_v7(interval '0') < uuid_generate_v7() AS zero_shift_in_order;
-- values with one shift keep their order
SELECT count(*) AS out_of_order
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuid_generate_v7(interval '-3 days') AS u FROM generate_series(1, 10000) n) g) s
WHERE u <= prev;
SELECT uuid_generate_v7(NULL::interval) IS NULL AS strict;

-- errors: a result outside 1970 .. 10889, in PostgreSQL 18's words (as
-- uuidx_core18's uuidv7(interval), the same function, must say it), and a
-- shift too large for timestamptz
SELECT uuid_generate_v7(interval '-100 years') IS NOT NULL;
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7(interval '9000 years') IS NOT NULL;
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7(interval '300000 years') IS NOT NULL;
\echo :LAST_ERROR_SQLSTATE
