-- Core's uuid_extract_timestamp(id) (PostgreSQL 18 and later) compared
-- with a time: it reads v1 and v7 keys, so it is answered from id's index
-- where the column's constraints exclude v1 keys, and left as written
-- elsewhere.  That the rows are the function's own, on 17 and 18 alike,
-- is checked in core_extract_pg17.

SET TimeZone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/helpers.sql'
\i :include


CREATE TABLE core_v7 (id uuid PRIMARY KEY);
INSERT INTO core_v7
  SELECT uuid_timestamptz_to_v7('2026-09-20 00:00+00'::timestamptz + g * interval '3 minutes', true)
  FROM generate_series(0, 29999) g;
-- declared with core's function itself, and with uuidx's
CREATE TABLE core_decl (id uuid PRIMARY KEY CHECK (uuid_extract_version(id) = 7 AND uuid_variant(id) = 2));
INSERT INTO core_decl SELECT id FROM core_v7;
CREATE TABLE core_67 (id uuid PRIMARY KEY CHECK (uuid_version(id) IN (6, 7)));
INSERT INTO core_67 SELECT id FROM core_v7;
INSERT INTO core_67
  SELECT v6_at('2026-09-20 00:00+00'::timestamptz + g * interval '30 minutes' + interval '1 second')
  FROM generate_series(0, 2999) g;
CREATE TABLE core_any (id uuid);
INSERT INTO core_any
  SELECT CASE g % 4 WHEN 0 THEN uuid_timestamptz_to_v7(t) WHEN 1 THEN v6_at(t)
                    WHEN 2 THEN uuid_v6_to_v1(v6_at(t)) ELSE md5(g::text)::uuid END
  FROM (SELECT g, '2026-09-20 00:00+00'::timestamptz + g * interval '7 minutes' AS t
        FROM generate_series(0, 13999) g) s;
CREATE INDEX ON core_any (id);
VACUUM ANALYZE core_v7, core_decl, core_67, core_any;

EXPLAIN (COSTS OFF)
SELECT count(*) FROM core_decl WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM core_67 WHERE uuid_extract_timestamp(id) BETWEEN '2026-10-20' AND '2026-10-21';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM core_v7 WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour';
EXPLAIN (COSTS OFF)
SELECT id FROM core_decl ORDER BY uuid_extract_timestamp(id) DESC LIMIT 5;

-- A table partitioned by range of the key, declared v7: a window prunes
-- to the partitions that can hold it (the default partition too).
CREATE TABLE core_part (id uuid NOT NULL, CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2))
  PARTITION BY RANGE (id);
CREATE TABLE core_part_10 PARTITION OF core_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-10-01+00')) TO (uuid_v7_lower_bound('2026-11-01+00'));
CREATE TABLE core_part_11 PARTITION OF core_part
  FOR VALUES FROM (uuid_v7_lower_bound('2026-11-01+00')) TO (uuid_v7_lower_bound('2026-12-01+00'));
CREATE TABLE core_part_default PARTITION OF core_part DEFAULT;
INSERT INTO core_part SELECT id FROM core_v7;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM core_part WHERE uuid_extract_timestamp(id) >= '2026-11-20';
SELECT (SELECT count(*) FROM core_part WHERE uuid_extract_timestamp(id) >= '2026-11-20') =
       (SELECT count(*) FROM core_v7 WHERE uuid_timestamp(id) >= '2026-11-20') AS same_count;

DROP TABLE core_v7, core_decl, core_67, core_any, core_part;
