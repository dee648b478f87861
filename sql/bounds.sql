-- uuid_v7_lower_bound / uuid_v7_upper_bound and time-range queries.

SELECT uuid_v7_lower_bound('2022-02-22 19:22:22+00') AS lower,
       uuid_v7_upper_bound('2022-02-22 19:22:22+00') AS upper;
-- the RFC v7 vector lies between the bounds of its millisecond
SELECT '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid
       BETWEEN uuid_v7_lower_bound('2022-02-22 19:22:22+00') AND uuid_v7_upper_bound('2022-02-22 19:22:22+00') AS inside,
       '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid
       < uuid_v7_lower_bound('2022-02-22 19:22:22.001+00') AS below_next_ms;
-- sub-millisecond parts and time zones do not matter
SELECT uuid_v7_lower_bound('2022-02-22 19:22:22.0009+00') = uuid_v7_lower_bound('2022-02-22 14:22:22-05') AS same_ms;
-- extremes and errors
SELECT uuid_v7_lower_bound('1970-01-01 00:00:00+00') AS first,
       uuid_v7_upper_bound('10889-08-02 05:31:50.655+00') AS last;
SELECT uuid_v7_lower_bound('1969-12-31 23:59:59.999+00');
SELECT uuid_v7_upper_bound('10889-08-02 05:31:50.656+00');
SELECT uuid_v7_lower_bound('infinity');
SELECT uuid_v7_upper_bound('-infinity');
SELECT uuid_v7_lower_bound(NULL) IS NULL AS strict_lower, uuid_v7_upper_bound(NULL) IS NULL AS strict_upper;

-- A table keyed by v7, with a year of rows: a range over the bounds is an
-- index scan on the primary key, and finds exactly the rows of that range.
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), created timestamptz NOT NULL);
INSERT INTO events (id, created)
  SELECT uuid_timestamptz_to_v7(t), date_trunc('milliseconds', t)
  FROM generate_series('2026-01-01 00:00:00+00'::timestamptz, '2026-12-31 23:59:00+00', interval '10 minutes') AS t;
VACUUM ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
WHERE id >= uuid_v7_lower_bound('2026-03-01 00:00:00+00')
  AND id < uuid_v7_lower_bound('2026-04-01 00:00:00+00');
SELECT count(*) AS march_rows,
       count(*) = (SELECT count(*) FROM events WHERE created >= '2026-03-01 00:00:00+00' AND created < '2026-04-01 00:00:00+00') AS same_as_by_time
FROM events
WHERE id >= uuid_v7_lower_bound('2026-03-01 00:00:00+00')
  AND id < uuid_v7_lower_bound('2026-04-01 00:00:00+00');
-- and the upper bound closes a range inclusively
SELECT count(*) AS ten_minutes_inclusive
FROM events
WHERE id BETWEEN uuid_v7_lower_bound('2026-03-10 12:00:00+00') AND uuid_v7_upper_bound('2026-03-10 12:10:00+00');
DROP TABLE events;
