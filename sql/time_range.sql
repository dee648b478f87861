-- id <@ tstzrange and tstzrange @> id: exact semantics.
--
-- The definition: true when id is a v6 or v7 whose uuid_timestamp() lies in
-- the range, false for every other UUID, NULL when either side is NULL.
-- Samples sit on the edges that matter (millisecond and microsecond
-- boundaries, the ends of v6's and v7's time spans, other versions and
-- variants); ranges cover every bound kind.

SET TimeZone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/helpers.sql'
\i :include


CREATE TABLE samples (name text PRIMARY KEY, id uuid);
INSERT INTO samples VALUES
  ('v7 12:00:00.000',     uuid_timestamptz_to_v7('2026-11-22 12:00:00+00', true)),
  ('v7 12:00:00.000 max', uuid_v7_upper_bound('2026-11-22 12:00:00+00')),
  ('v7 12:00:00.001',     uuid_timestamptz_to_v7('2026-11-22 12:00:00.001+00', true)),
  ('v7 12:00:00.999',     uuid_v7_upper_bound('2026-11-22 12:00:00.999+00')),
  ('v7 12:00:01.000',     uuid_timestamptz_to_v7('2026-11-22 12:00:01+00', true)),
  ('v6 12:00:00.0000000', v6_at('2026-11-22 12:00:00+00')),
  ('v6 12:00:00.0005009', v6_at('2026-11-22 12:00:00.0005+00', 9)),
  ('v6 12:00:00.9999999', v6_at('2026-11-22 12:00:00.999999+00', 9)),
  ('v6 12:00:01.0000000', v6_at('2026-11-22 12:00:01+00')),
  ('v1 12:00:00.0000000', uuid_v6_to_v1(v6_at('2026-11-22 12:00:00+00'))),
  ('v4',                  '8d9e1f62-5b0b-4c6f-9a3e-2f1d0c7b6a59'),
  ('v8 time-like',        uuid_v8_from_parts((extract(epoch FROM '2026-11-22 12:00:00+00'::timestamptz) * 1000)::bigint, 0, 0)),
  ('v7 NCS variant',      with_variant(uuid_timestamptz_to_v7('2026-11-22 12:00:00.5+00', true), '0')),
  ('v7 Microsoft variant',with_variant(uuid_timestamptz_to_v7('2026-11-22 12:00:00.5+00', true), 'c')),
  ('v7 future variant',   with_variant(uuid_timestamptz_to_v7('2026-11-22 12:00:00.5+00', true), 'e')),
  ('v6 NCS variant',      with_variant(v6_at('2026-11-22 12:00:00.5+00'), '0')),
  ('nil',                 '00000000-0000-0000-0000-000000000000'),
  ('max',                 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  ('v6 1960',             v6_at('1960-06-01 00:00:00+00')),
  ('v6 first',            '00000000-0000-6000-8000-000000000000'),
  ('v6 last',             'ffffffff-ffff-6fff-bfff-ffffffffffff'),
  ('v7 first',            '00000000-0000-7000-8000-000000000000'),
  ('v7 last',             'ffffffff-ffff-7fff-bfff-ffffffffffff'),
  ('v7 DST gap',          uuid_timestamptz_to_v7('2026-03-08 07:00:00+00', true)),
  ('NULL',                NULL);
SELECT name, id, uuid_version(id) AS version, uuid_timestamp(id) AS time FROM samples ORDER BY id, name;

CREATE TABLE ranges (name text PRIMARY KEY, r tstzrange);
INSERT INTO ranges VALUES
  ('[12:00, 12:00:01)',           '[2026-11-22 12:00:00+00, 2026-11-22 12:00:01+00)'),
  ('(12:00, 12:00:01]',           '(2026-11-22 12:00:00+00, 2026-11-22 12:00:01+00]'),
  ('[12:00, 12:00]',              '[2026-11-22 12:00:00+00, 2026-11-22 12:00:00+00]'),
  ('(12:00, 12:00:00.001)',       '(2026-11-22 12:00:00+00, 2026-11-22 12:00:00.001+00)'),
  ('[12:00:00.0005, 12:00:00.999999]', '[2026-11-22 12:00:00.0005+00, 2026-11-22 12:00:00.999999+00]'),
  ('[12:00:00.000501, 12:00:01)', '[2026-11-22 12:00:00.000501+00, 2026-11-22 12:00:01+00)'),
  ('(, 12:00:00.001)',            '(,2026-11-22 12:00:00.001+00)'),
  ('[12:00:00.999, )',            '[2026-11-22 12:00:00.999+00,)'),
  ('(,)',                         '(,)'),
  ('empty',                       'empty'),
  ('[-infinity, infinity]',       '[-infinity, infinity]'),
  ('[infinity, infinity]',        '[infinity, infinity]'),
  ('[-infinity, -infinity]',      '[-infinity, -infinity]'),
  ('[1960, 1961)',                '[1960-01-01+00, 1961-01-01+00)'),
  ('[1500, 1582-10-15)',          '[1500-01-01+00, 1582-10-15 00:00:00+00)'),
  ('[1500, 1582-10-15]',          '[1500-01-01+00, 1582-10-15 00:00:00+00]'),
  ('[1970, 1970]',                '[1970-01-01 00:00:00+00, 1970-01-01 00:00:00+00]'),
  ('[5236-03-31 21:21:00.684697, 6000)', '[5236-03-31 21:21:00.684697+00, 6000-01-01+00)'),
  ('(5236-03-31 21:21:00.684697, 6000)', '(5236-03-31 21:21:00.684697+00, 6000-01-01+00)'),
  ('[10889-08-02 05:31:50.655, )', '[10889-08-02 05:31:50.655+00,)'),
  ('(10889-08-02 05:31:50.655, )', '(10889-08-02 05:31:50.655+00,)'),
  ('[20000, 20001)',              '[20000-01-01+00, 20001-01-01+00)'),
  ('[40000, )',                   '[40000-01-01+00,)'),
  ('[2020, 40000)',               '[2020-01-01+00, 40000-01-01+00)'),
  ('(, 294270)',                  '(,294270-01-01+00)'),
  ('[294270, )',                  '[294270-01-01+00,)'),
  ('NULL',                        NULL);

-- What each range holds, by the operator.
SELECT r.name AS range, string_agg(s.name, ', ' ORDER BY s.id, s.name) AS holds
FROM ranges r LEFT JOIN samples s ON s.id <@ r.r
GROUP BY r.name ORDER BY r.name;

-- The operator, its commutator and both functions against the definition,
-- in a select list (where NULL and false differ) over every pair.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (s.id <@ r.r) IS DISTINCT FROM d.def) AS contained_by_wrong,
       count(*) FILTER (WHERE (r.r @> s.id) IS DISTINCT FROM d.def) AS contains_wrong,
       count(*) FILTER (WHERE uuid_contained_by_tstzrange(s.id, r.r) IS DISTINCT FROM d.def) AS function_wrong,
       count(*) FILTER (WHERE tstzrange_contains_uuid(r.r, s.id) IS DISTINCT FROM d.def) AS commuted_function_wrong,
       count(*) FILTER (WHERE d.def) AS true_pairs,
       count(*) FILTER (WHERE d.def IS NULL) AS null_pairs
FROM samples s CROSS JOIN ranges r
CROSS JOIN LATERAL (
  SELECT CASE WHEN s.id IS NULL OR r.r IS NULL THEN NULL
              ELSE coalesce(uuid_version(s.id) IN (6, 7) AND r.r @> uuid_timestamp(s.id), false) END AS def) d;

-- A range the query builds from timestamps goes to the planner as its
-- parts (uuidx_time_between): the same answers, NULL bounds open, every
-- bound kind, against the definition over every pair.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (s.id <@ tstzrange(lower(r.r), upper(r.r), b.flags)) IS DISTINCT FROM d.def) AS built_wrong,
       count(*) FILTER (WHERE (tstzrange(lower(r.r), upper(r.r), b.flags) @> s.id) IS DISTINCT FROM d.def) AS commuted_wrong
FROM samples s CROSS JOIN ranges r
CROSS JOIN LATERAL (SELECT (CASE WHEN lower_inc(r.r) THEN '[' ELSE '(' END) ||
                           (CASE WHEN upper_inc(r.r) THEN ']' ELSE ')' END) AS flags) b
CROSS JOIN LATERAL (
  SELECT CASE WHEN s.id IS NULL THEN NULL
              ELSE coalesce(uuid_version(s.id) IN (6, 7)
                            AND tstzrange(lower(r.r), upper(r.r), b.flags) @> uuid_timestamp(s.id), false) END AS def) d
WHERE r.r IS NOT NULL AND NOT isempty(r.r);
EXPLAIN (COSTS OFF)
SELECT s.name FROM samples s, ranges r WHERE s.id <@ tstzrange(lower(r.r), upper(r.r), '[]');
-- and fails as the constructor does
SELECT count(*) FROM samples WHERE id <@ tstzrange('2026-11-22 12:00:01+00'::text::timestamptz, '2026-11-22 12:00:00+00'::text::timestamptz);
SELECT count(*) FROM samples WHERE id <@ tstzrange(now(), now(), 'x');

-- A call site that sees one range after another (a PL/pgSQL variable is a
-- parameter whose value changes while the expression is kept) answers for
-- each.
DO $$
DECLARE
  r tstzrange;
  answers text := '';
BEGIN
  FOREACH r IN ARRAY array['[2026-11-22 12:00:00+00, 2026-11-22 12:00:01+00)',
                           '[2026-11-22 13:00:00+00, 2026-11-22 13:00:01+00)',
                           '[2026-11-22 12:00:00+00, 2026-11-22 12:00:01+00)']::tstzrange[] LOOP
    answers := answers || (uuid_timestamptz_to_v7('2026-11-22 12:00:00.5+00', true) <@ r)::text || ' ';
  END LOOP;
  RAISE NOTICE 'in, out, in: %', answers;
END $$;
CREATE FUNCTION in_range(u uuid, r tstzrange) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RETURN u <@ r;
END $$;
SELECT r.name, in_range(uuid_timestamptz_to_v7('2026-11-22 12:00:00.5+00', true), r.r) AS in_range
FROM ranges r WHERE r.name IN ('[12:00, 12:00:01)', '[12:00, 12:00]', '[1960, 1961)') ORDER BY r.name;

-- Constants fold to the same answers.
SELECT '00000000-0000-7000-8000-000000000000'::uuid <@ '[1970-01-01+00, 1970-01-01+00]'::tstzrange AS v7_first,
       '[1970-01-01+00,)'::tstzrange @> 'ffffffff-ffff-7fff-bfff-ffffffffffff'::uuid AS v7_last,
       NULL::uuid <@ '(,)'::tstzrange AS null_uuid,
       '00000000-0000-7000-8000-000000000000'::uuid <@ NULL::tstzrange AS null_range;

-- Time zones: a range written in local time means the same instants.  In
-- New York, 2026-03-08 01:59:59.999 and 03:00:00 are one millisecond apart
-- (the clocks skip 02:00 to 03:00): 06:59:59.999 and 07:00:00 UTC.
SET TimeZone = 'America/New_York';
SELECT s.name,
       s.id <@ tstzrange('2026-03-08 01:59:59.999', '2026-03-08 03:00:00', '[]') AS across_gap_closed,
       s.id <@ tstzrange('2026-03-08 01:59:59.999', '2026-03-08 03:00:00', '[)') AS across_gap_open,
       s.id <@ tstzrange('2026-03-08 06:59:59.999+00', '2026-03-08 07:00:00+00', '[]') AS same_in_utc,
       s.id <@ tstzrange('2026-11-22 07:00:00', '2026-11-22 07:00:01') AS at_noon_utc
FROM samples s WHERE s.name IN ('v7 DST gap', 'v7 12:00:00.000', 'v6 12:00:00.0000000') ORDER BY s.name;
SET TimeZone = 'Asia/Kathmandu';
SELECT count(*) AS in_kathmandu_second FROM samples s
WHERE s.id <@ tstzrange('2026-11-22 17:45:00', '2026-11-22 17:45:01');
RESET TimeZone;

-- The planner's pieces.  uuidx_time_bound gives the smallest and largest
-- UUID of a version whose time lies in the range, and for a range that
-- holds no time of that version a pair no UUID lies between.
SELECT uuidx_time_bound('[2026-11-22 12:00:00+00, 2026-11-22 12:00:01+00)', 7, false) AS v7_lower,
       uuidx_time_bound('[2026-11-22 12:00:00+00, 2026-11-22 12:00:01+00)', 7, true) AS v7_upper,
       uuidx_time_bound('[2026-11-22 12:00:00+00, 2026-11-22 12:00:01+00)', 6, false) AS v6_lower,
       uuidx_time_bound('[2026-11-22 12:00:00+00, 2026-11-22 12:00:01+00)', 6, true) AS v6_upper;
SELECT uuidx_time_bound('[1960-01-01+00, 1961-01-01+00)', 7, false) AS v7_none_lower,
       uuidx_time_bound('[1960-01-01+00, 1961-01-01+00)', 7, true) AS v7_none_upper,
       uuidx_time_bound('empty', 6, false) AS empty_lower;
SELECT uuidx_time_bound('(,)', 5, false);
SELECT uuidx_time_within(uuid_timestamptz_to_v7('2026-11-22 12:00:00+00'), '(,)', 5, false) AS other_version;
-- SQL 1.2's span pieces, no longer built but still installed, keep their
-- meaning: id <@ r, whole or by its parts, against the definition over
-- every pair.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE uuidx_time_span(s.id, r.r, false) IS DISTINCT FROM d.def) AS span_wrong,
       count(*) FILTER (WHERE uuidx_time_span_between(s.id, lower(r.r), upper(r.r), b.flags, true)
                              IS DISTINCT FROM d.def) AS span_between_wrong
FROM samples s CROSS JOIN ranges r
CROSS JOIN LATERAL (SELECT (CASE WHEN lower_inc(r.r) THEN '[' ELSE '(' END) ||
                           (CASE WHEN upper_inc(r.r) THEN ']' ELSE ')' END) AS flags) b
CROSS JOIN LATERAL (
  SELECT CASE WHEN s.id IS NULL THEN NULL
              ELSE coalesce(uuid_version(s.id) IN (6, 7) AND r.r @> uuid_timestamp(s.id), false) END AS def) d
WHERE r.r IS NOT NULL AND NOT isempty(r.r);
