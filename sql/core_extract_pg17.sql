-- Core's uuid_extract_timestamp(id), PostgreSQL 17 and later, as a time
-- condition.  17's reads v1 keys only (NULL for a v7), so there uuidx
-- leaves it as written, even on a column declared v7: a key range would
-- return v7 rows the function does not.  18's reads v7 keys too, and there
-- it is answered from id's index on a column whose constraints exclude v1
-- keys.  On either, the rows are the function's own (checked here for
-- both; 18's plans in full: time_forms_pg18).

SET TimeZone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set include :abs_srcdir '/sql/include/helpers.sql'
\i :include




-- declared v7 with core's own function; v6 and v7 keys declared with
-- uuidx's (core's function reads no v6 key)
CREATE TABLE core17_decl (id uuid PRIMARY KEY CHECK (uuid_extract_version(id) = 7 AND uuid_variant(id) = 2));
INSERT INTO core17_decl
  SELECT uuid_timestamptz_to_v7('2026-10-01 00:00+00'::timestamptz + g * interval '3 minutes', true)
  FROM generate_series(0, 9999) g;
CREATE TABLE core17_67 (id uuid PRIMARY KEY CHECK (uuid_version(id) IN (6, 7)));
INSERT INTO core17_67 SELECT id FROM core17_decl;
INSERT INTO core17_67
  SELECT v6_at('2026-10-01 00:00+00'::timestamptz + g * interval '30 minutes' + interval '1 second')
  FROM generate_series(0, 999) g;
-- v7, v6, v1 and v4 keys
CREATE TABLE core17_any (id uuid PRIMARY KEY);
INSERT INTO core17_any
  SELECT CASE g % 4 WHEN 0 THEN uuid_timestamptz_to_v7(t) WHEN 1 THEN v6_at(t)
                    WHEN 2 THEN uuid_v6_to_v1(v6_at(t)) ELSE md5(g::text)::uuid END
  FROM (SELECT g, '2026-10-01 00:00+00'::timestamptz + g * interval '7 minutes' AS t
        FROM generate_series(0, 3999) g) s;
VACUUM ANALYZE core17_decl, core17_67, core17_any;

-- Rewritten into the key's range (and so from the index) only where the
-- function reads v7 keys (18 and later) and the column excludes v1 keys;
-- on 17 a column of v6 and v7 keys has no row in any window.
SELECT t AS "table",
       (plan_text(format($$SELECT count(*) FROM %I WHERE uuid_extract_timestamp(id) >= '2026-10-10'$$, t))
        !~ 'uuid_extract_timestamp\(')
         = (t <> 'core17_any' AND current_setting('server_version_num')::int >= 180000) AS rewritten_where_exact,
       (rows_of(format($$SELECT 1 FROM %I WHERE uuid_extract_timestamp(id) >= '2026-10-10'$$, t)) > 0)
         = (t = 'core17_any' OR current_setting('server_version_num')::int >= 180000) AS rows_where_readable
FROM (VALUES ('core17_decl'), ('core17_67'), ('core17_any')) tt(t)
ORDER BY 1;

-- The same rows as the function gives, for each operator, both ways
-- round, and times on keys, between keys and outside the data: its values
-- computed once per row in a materialized CTE and compared as a plain
-- column.
SELECT tbl AS "table", count(*) AS checks,
       count(*) FILTER (WHERE got IS DISTINCT FROM expected) AS mismatches
FROM (VALUES ('core17_decl'), ('core17_67'), ('core17_any')) t(tbl),
     (VALUES ('<'), ('<='), ('='), ('>='), ('>')) o(op),
     unnest(array['2026-10-10 00:00+00', '2026-10-10 00:00:00.0005+00', '2026-10-10 00:01:00.000001+00',
                  '1960-01-01+00', 'infinity']::timestamptz[]) ts,
     (VALUES (true), (false)) l(form_left),
     LATERAL (SELECT rows_of(CASE WHEN form_left
                                  THEN format('SELECT 1 FROM %I WHERE uuid_extract_timestamp(id) %s %L', tbl, op, ts)
                                  ELSE format('SELECT 1 FROM %I WHERE %L %s uuid_extract_timestamp(id)', tbl, ts, op) END) AS got,
                     rows_of(format('WITH m AS MATERIALIZED (SELECT uuid_extract_timestamp(id) AS t FROM %I) '
                                    'SELECT 1 FROM m WHERE %s',
                                    tbl, CASE WHEN form_left THEN format('t %s %L', op, ts)
                                              ELSE format('%L %s t', ts, op) END)) AS expected) r
GROUP BY tbl ORDER BY tbl;

DROP TABLE core17_decl, core17_67, core17_any;
