-- id <@ tstzrange on indexed and partitioned tables: the plans the planner
-- makes of it, and its row estimates.

SET TimeZone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/helpers.sql'
\i :include


-- 30 days of v7 keys, one every 13 seconds, in time order, and 600 v6 keys
-- from the same days (a column mid-migration holds both).
CREATE TABLE events (id uuid PRIMARY KEY, payload int);
INSERT INTO events
  SELECT uuid_timestamptz_to_v7(t), 0
  FROM generate_series('2026-10-20 00:00:00+00'::timestamptz, '2026-11-18 23:59:59+00', interval '13 seconds') AS t;
INSERT INTO events
  SELECT v6_at('2026-10-20 00:00:00+00'::timestamptz + g * interval '72 minutes', g), g FROM generate_series(1, 600) g;
VACUUM ANALYZE events;
SELECT count(*) AS rows FROM events;

-- A B-tree index answers it: a BitmapOr of one index scan for v7 and one
-- for v6, whose conditions are the range's bounds.  Constant ranges give
-- constant bounds.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id <@ tstzrange('2026-11-10 00:00+00', '2026-11-10 01:00+00');
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE tstzrange('2026-11-10 00:00+00', '2026-11-10 01:00+00') @> id;
-- Stable expressions give bounds computed when the scan starts.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id <@ tstzrange(now() - interval '1 hour', now());
-- So do a prepared statement's parameters, in its generic plan.
PREPARE in_range(tstzrange) AS SELECT count(*) FROM events WHERE id <@ $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE in_range('[2026-11-10 00:00+00, 2026-11-10 01:00+00)');
EXECUTE in_range('[2026-11-10 00:00+00, 2026-11-10 01:00+00)');
RESET plan_cache_mode;
-- Whatever the plan, the rows are those of the definition.
SELECT (SELECT count(*) FROM events WHERE id <@ tstzrange('2026-11-10 00:00+00', '2026-11-10 01:00+00')) AS by_operator,
       (SELECT count(*) FROM events WHERE uuid_timestamp(id) >= '2026-11-10 00:00+00'
                                      AND uuid_timestamp(id) < '2026-11-10 01:00+00') AS by_definition;

-- Row estimates within a factor of 2 of the true count, from id's histogram;
-- the last hour of the data too, where the histogram passes from the newest
-- v7 keys to the v6 keys that sort after them.
SELECT w AS window, estimate_ratio(format('SELECT * FROM events WHERE id <@ tstzrange(%L, %L)', a, b)) BETWEEN 0.5 AND 2 AS within_2x
FROM (VALUES ('1 minute', '2026-11-10 00:00+00'::timestamptz, '2026-11-10 00:01+00'::timestamptz),
             ('1 hour', '2026-11-10 00:00+00', '2026-11-10 01:00+00'),
             ('1 day', '2026-11-10 00:00+00', '2026-11-11 00:00+00'),
             ('10 days', '2026-11-01 00:00+00', '2026-11-11 00:00+00'),
             ('last hour of the data', '2026-11-18 23:00+00', '2026-11-19 00:00+00'),
             ('last day of the data', '2026-11-18 00:00+00', '2026-11-19 00:00+00')) v(w, a, b);

-- A BRIN index answers it the same way.
CREATE TABLE events_brin (id uuid, payload int);
INSERT INTO events_brin SELECT * FROM events ORDER BY id;
CREATE INDEX events_brin_id ON events_brin USING brin (id);
VACUUM ANALYZE events_brin;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events_brin WHERE id <@ tstzrange('2026-11-10 00:00+00', '2026-11-10 01:00+00');
SELECT count(*) FROM events_brin WHERE id <@ tstzrange('2026-11-10 00:00+00', '2026-11-10 01:00+00');

-- Partitioned by range of id, monthly, with bounds from uuid_v7_lower_bound.
CREATE TABLE events_part (id uuid PRIMARY KEY, payload int) PARTITION BY RANGE (id);
CREATE TABLE events_2026_10 PARTITION OF events_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-10-01+00')) TO (uuid_v7_lower_bound('2026-11-01+00'));
CREATE TABLE events_2026_11 PARTITION OF events_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-11-01+00')) TO (uuid_v7_lower_bound('2026-12-01+00'));
CREATE TABLE events_2026_12 PARTITION OF events_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-12-01+00')) TO (uuid_v7_lower_bound('2027-01-01+00'));
INSERT INTO events_part SELECT * FROM events WHERE uuid_version(id) = 7;
VACUUM ANALYZE events_part;
-- Constants: pruned when planning, only November is scanned.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events_part WHERE id <@ tstzrange('2026-11-10 00:00+00', '2026-11-10 01:00+00');
-- A range across the month end scans October and November.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events_part WHERE id <@ tstzrange('2026-10-31 23:00+00', '2026-11-01 01:00+00');
-- Stable expressions (date_trunc of a timestamptz depends on the session's
-- time zone) and parameters: pruned when the executor starts.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events_part
WHERE id <@ tstzrange(date_trunc('hour', '2026-11-10 00:10+00'::timestamptz),
                      date_trunc('hour', '2026-11-10 01:10+00'::timestamptz));
PREPARE part_in_range(tstzrange) AS SELECT count(*) FROM events_part WHERE $1 @> id;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE part_in_range('[2026-11-10 00:00+00, 2026-11-10 01:00+00)');
EXECUTE part_in_range('[2026-11-10 00:00+00, 2026-11-10 01:00+00)');
RESET plan_cache_mode;
-- Here each arm carries comparisons for pruning, and the planner's own
-- estimate of them (that of hand-written bounds) caps the arm's: right for
-- windows that span several histogram buckets of a partition, low for
-- shorter ones.
SELECT estimate_ratio($$SELECT * FROM events_part WHERE id <@ tstzrange('2026-11-10 00:00+00', '2026-11-11 00:00+00')$$)
       BETWEEN 0.5 AND 2 AS one_day_within_2x;
