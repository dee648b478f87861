-- The planner's row estimate of a query against its true row count
-- (included by the tests that check estimates).
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
