-- id <@ tstzrange against its definition, on a column holding every kind of
-- UUID, for random ranges, under every plan the planner can be forced into.
-- The data and ranges are random on every run; what is printed is not:
-- the number of checks, the mismatches (0; each one is also reported with
-- its range and plan) and the plan shapes each setting produced (with both
-- arms only a bitmap scan can use the index, with one arm any index scan).
-- v6_at() and with_variant() are time_range's.

SET TimeZone = 'UTC';

CREATE TABLE mixed (id uuid);
INSERT INTO mixed
  SELECT CASE k
           WHEN 0 THEN uuid_timestamptz_to_v7(t)
           WHEN 1 THEN v6_at(t, (random() * 9)::int)
           WHEN 2 THEN uuid_v6_to_v1(v6_at(t))
           WHEN 3 THEN gen_random_uuid()
           WHEN 4 THEN uuid_v8_from_parts((extract(epoch FROM t) * 1000)::bigint, 0, 0)
           WHEN 5 THEN with_variant(uuid_timestamptz_to_v7(t), (array['0', '4', 'c', 'e'])[1 + (random() * 3)::int])
           WHEN 6 THEN with_variant(v6_at(t), 'c')
           ELSE (array['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
                       '00000000-0000-7000-8000-000000000000', 'ffffffff-ffff-7fff-bfff-ffffffffffff',
                       '00000000-0000-6000-8000-000000000000', 'ffffffff-ffff-6fff-bfff-ffffffffffff',
                       NULL])[1 + (random() * 6)::int]::uuid
         END
  FROM (SELECT (random() * 7.3)::int AS k,
               '2026-10-01+00'::timestamptz + random() * interval '60 days' AS t
        FROM generate_series(1, 20000)) s;
CREATE TABLE mixed_brin AS SELECT * FROM mixed ORDER BY id;
CREATE INDEX ON mixed (id);
CREATE INDEX ON mixed_brin USING brin (id) WITH (pages_per_range = 8);
VACUUM ANALYZE mixed, mixed_brin;

-- Random ranges: bounds on random microseconds, milliseconds or seconds of
-- the data's span, random inclusivity, now and then open, empty or
-- reaching beyond v6's and v7's spans.
CREATE TABLE random_ranges AS
  SELECT g AS n,
         CASE WHEN random() < 0.05 THEN 'empty'::tstzrange
              ELSE tstzrange(CASE WHEN random() < 0.1 THEN NULL
                                  WHEN random() < 0.05 THEN '1500-01-01+00'::timestamptz
                                  ELSE a END,
                             CASE WHEN random() < 0.1 THEN NULL
                                  WHEN random() < 0.05 THEN '12000-01-01+00'::timestamptz
                                  ELSE a + random() * (array[interval '1 ms', '1 second', '1 hour', '3 days'])[1 + (random() * 3)::int] END,
                             (array['[)', '[]', '()', '(]'])[1 + (random() * 3)::int]) END AS r
  FROM (SELECT g, date_trunc((array['microseconds', 'milliseconds', 'second'])[1 + (random() * 2)::int],
                             '2026-10-01+00'::timestamptz + random() * interval '60 days') AS a
        FROM generate_series(1, 120) g) s;
-- and four fixed ones, so that each setting meets every plan it allows:
-- everything, one arm (v7 only: past v6's end; v6 only: before 1970), and
-- a narrow one with both arms.
INSERT INTO random_ranges VALUES
  (1001, '(,)'),
  (1002, '[5300-01-01+00, 5300-01-02+00)'),
  (1003, '[1960-01-01+00, 1960-01-02+00)'),
  (1004, '[2026-10-15 00:00+00, 2026-10-15 00:10+00)');

CREATE FUNCTION check_plans(tbl text, setting text) RETURNS TABLE (checks int, mismatches int, shapes text)
LANGUAGE plpgsql AS $$
DECLARE
  rr record;
  q text;
  expected bigint;
  got bigint;
  plan json;
  shape text;
  seen text[] := '{}';
BEGIN
  checks := 0;
  mismatches := 0;
  FOR rr IN SELECT n, r FROM random_ranges ORDER BY n LOOP
    EXECUTE format('SET LOCAL enable_seqscan = on; SET LOCAL enable_indexscan = on; SET LOCAL enable_bitmapscan = on');
    EXECUTE format('SELECT count(*) FROM %I WHERE uuid_version(id) IN (6, 7) AND %L::tstzrange @> uuid_timestamp(id)', tbl, rr.r)
      INTO expected;
    IF setting <> 'default' THEN
      EXECUTE format('SET LOCAL %s = off', setting);
    END IF;
    -- the range as a constant, commuted, and built by the query from
    -- timestamps the planner cannot fold (its parts then go to the plan)
    FOREACH q IN ARRAY array[format('SELECT id FROM %I WHERE id <@ %L::tstzrange', tbl, rr.r),
                             format('SELECT id FROM %I WHERE %L::tstzrange @> id', tbl, rr.r),
                             format('SELECT id FROM %I WHERE id <@ tstzrange(%L::timestamptz + (now() - now()), %L::timestamptz + (now() - now()), %L)',
                                    tbl,
                                    CASE WHEN isempty(rr.r) THEN '2026-10-10+00' ELSE lower(rr.r)::text END,
                                    CASE WHEN isempty(rr.r) THEN '2026-10-10+00' ELSE upper(rr.r)::text END,
                                    CASE WHEN isempty(rr.r) THEN '[)'
                                         ELSE (CASE WHEN lower_inc(rr.r) THEN '[' ELSE '(' END) ||
                                              (CASE WHEN upper_inc(rr.r) THEN ']' ELSE ')' END) END)] LOOP
      EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO got;
      EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
      -- Index Scan and Index Only Scan count as one: which of the two is
      -- a matter of visibility, not of the operator
      shape := replace(plan->0->'Plan'->>'Node Type', 'Index Only Scan', 'Index Scan');
      IF NOT shape = ANY (seen) THEN
        seen := seen || shape;
      END IF;
      checks := checks + 1;
      IF got IS DISTINCT FROM expected THEN
        mismatches := mismatches + 1;
        RAISE NOTICE 'mismatch on % with %=off: % rows, definition % rows; range %; plan %', tbl, setting, got, expected, rr.r, plan;
      END IF;
    END LOOP;
  END LOOP;
  SELECT string_agg(x, ', ' ORDER BY x) INTO shapes FROM unnest(seen) x;
  RETURN NEXT;
END $$;

SELECT t AS "table", s AS off, c.*
FROM (VALUES ('mixed'), ('mixed_brin')) v(t)
CROSS JOIN (VALUES ('default'), ('enable_seqscan'), ('enable_bitmapscan'), ('enable_indexscan')) w(s)
CROSS JOIN LATERAL check_plans(t, s) c
ORDER BY 1, 2;

-- A prepared statement's generic plan, where the bounds are computed when
-- the scan starts, against its custom plans.
PREPARE in_random(tstzrange) AS SELECT count(*) FROM mixed WHERE id <@ $1;
CREATE FUNCTION check_generic() RETURNS TABLE (checks int, mismatches int)
LANGUAGE plpgsql AS $$
DECLARE
  rr record;
  expected bigint;
  got bigint;
BEGIN
  checks := 0;
  mismatches := 0;
  SET LOCAL plan_cache_mode = force_generic_plan;
  SET LOCAL enable_seqscan = off;
  FOR rr IN SELECT n, r FROM random_ranges ORDER BY n LOOP
    SELECT count(*) INTO expected FROM mixed WHERE uuid_version(id) IN (6, 7) AND rr.r @> uuid_timestamp(id);
    EXECUTE format('EXECUTE in_random(%L)', rr.r) INTO got;
    checks := checks + 1;
    IF got IS DISTINCT FROM expected THEN
      mismatches := mismatches + 1;
      RAISE NOTICE 'mismatch in the generic plan: % rows, definition % rows; range %', got, expected, rr.r;
    END IF;
  END LOOP;
  RETURN NEXT;
END $$;
SELECT * FROM check_generic();
