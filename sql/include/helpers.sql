-- Helpers of the time-range tests (included by each, so that each runs
-- alone, as make installcheck REGRESS=name does).

-- A v6 of a time, plus extra 100-ns ticks, built from its text form.
CREATE OR REPLACE FUNCTION v6_at(ts timestamptz, extra_ticks bigint DEFAULT 0) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$
  SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-6' || substr(h, 13, 3) || '-8000-000000000000')::uuid
  FROM (SELECT lpad(to_hex((extract(epoch FROM ts) * 10000000)::bigint + 122192928000000000 + extra_ticks), 15, '0') AS h) s
$$;
-- The same UUID with the variant bits of octet 8 replaced (hex digit 17).
CREATE OR REPLACE FUNCTION with_variant(u uuid, digit text) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$
  SELECT overlay(replace(u::text, '-', '') PLACING digit FROM 17 FOR 1)::uuid
$$;
-- A v4 UUID drawn from a number.
CREATE OR REPLACE FUNCTION v4_of(n int) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$
  SELECT overlay(overlay(md5(n::text) PLACING '4' FROM 13 FOR 1) PLACING '8' FROM 17 FOR 1)::uuid
$$;
-- The lines of a plan, as one text.
CREATE OR REPLACE FUNCTION plan_text(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  line text;
  plan text := '';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    plan := plan || line || E'\n';
  END LOOP;
  RETURN plan;
END $$;
-- The number of rows a query returns.
CREATE OR REPLACE FUNCTION rows_of(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE 'SELECT count(*) FROM (' || query || ') q' INTO n;
  RETURN n;
END $$;
-- The definition, for the count of rows a condition on the forms selects:
-- the functions' values computed once per row in a materialized CTE and
-- compared as plain columns, which no rewrite reads.
CREATE OR REPLACE FUNCTION defined_rows(tbl text, cond text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE format('WITH m AS MATERIALIZED (SELECT id, uuid_timestamp(id) AS t_u, uuid_v7_to_timestamptz(id) AS t_v7 FROM %I) '
                 'SELECT count(*) FROM m WHERE %s',
                 tbl, replace(replace(cond, 'uuid_timestamp(id)', 't_u'), 'uuid_v7_to_timestamptz(id)', 't_v7'))
    INTO n;
  RETURN n;
END $$;
-- The planner's row estimate of a query against its true row count.
CREATE OR REPLACE FUNCTION estimate_ratio(query text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
  plan json;
  actual bigint;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
  EXECUTE 'SELECT count(*) FROM (' || query || ') q' INTO actual;
  RETURN (plan->0->'Plan'->>'Plan Rows')::float8 / greatest(actual, 1);
END $$;
