-- uuid_v1_to_v6 and uuid_v6_to_v1.

-- RFC test vectors: the v1 and v6 of rfc4122bis-12 are one another.
SELECT uuid_v1_to_v6('C232AB00-9414-11EC-B3C8-9E6BDECED846') AS v6,
       uuid_v6_to_v1('1EC9414C-232A-6B00-B3C8-9E6BDECED846') AS v1;

-- A value already in the target version comes back unchanged, so a
-- migration can be run again.
SELECT uuid_v1_to_v6('1EC9414C-232A-6B00-B3C8-9E6BDECED846') AS v6_unchanged,
       uuid_v6_to_v1('C232AB00-9414-11EC-B3C8-9E6BDECED846') AS v1_unchanged;

-- Thousands of real v1 values from uuid-ossp: converted to v6 and back
-- unchanged, with the same timestamp, clock_seq and node, and v6 sorts in
-- time order.
CREATE EXTENSION "uuid-ossp";
CREATE TEMP TABLE v1 AS
  SELECT n, uuid_generate_v1() AS u1, uuid_generate_v1mc() AS u1mc
  FROM generate_series(1, 5000) AS n;
SELECT count(*) AS values,
       bool_and(uuid_version(u1) = 1) AS all_v1,
       bool_and(uuid_v6_to_v1(uuid_v1_to_v6(u1)) = u1 AND uuid_v6_to_v1(uuid_v1_to_v6(u1mc)) = u1mc) AS round_trip,
       bool_and(uuid_version(uuid_v1_to_v6(u1)) = 6) AS all_v6,
       bool_and(uuid_timestamp(uuid_v1_to_v6(u1)) = uuid_timestamp(u1)) AS same_time,
       bool_and(uuid_clock_seq(uuid_v1_to_v6(u1)) = uuid_clock_seq(u1)) AS same_clock_seq,
       bool_and(uuid_node(uuid_v1_to_v6(u1)) = uuid_node(u1)) AS same_node,
       bool_and(uuid_node(uuid_v1_to_v6(u1mc)) = uuid_node(u1mc)) AS same_random_node,
       bool_and(abs(extract(epoch FROM uuid_timestamp(u1) - clock_timestamp())) < 60) AS v1_time_is_now
FROM v1;
-- Sorted as v6, the values' timestamps never go back.
SELECT count(*) AS v6_out_of_time_order
FROM (SELECT uuid_timestamp(u6) AS t, lag(uuid_timestamp(u6)) OVER (ORDER BY u6) AS prev
      FROM (SELECT uuid_v1_to_v6(u1) AS u6 FROM v1 UNION ALL SELECT uuid_v1_to_v6(u1mc) FROM v1) x) s
WHERE t < prev;
DROP TABLE v1;

-- Every other version and variant is refused, naming what it got.
SELECT uuid_v1_to_v6('919108f7-52d1-4320-9bac-f847db4148a8');
SELECT uuid_v1_to_v6('017F22E2-79B0-7CC3-98C4-DC0C0C07398F');
SELECT uuid_v1_to_v6('00000000-0000-0000-0000-000000000000');
SELECT uuid_v1_to_v6('ffffffff-ffff-ffff-ffff-ffffffffffff');
SELECT uuid_v1_to_v6('C232AB00-9414-11EC-D3C8-9E6BDECED846');
SELECT uuid_v6_to_v1('401835fd-a627-870a-873f-ed73f2bc5b2c');
SELECT uuid_v6_to_v1('1EC9414C-232A-6B00-73C8-9E6BDECED846');
-- all 16 versions: which convert, which pass through, which fail
CREATE FUNCTION try_convert(f text, u uuid) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r uuid;
BEGIN
  EXECUTE format('SELECT %I($1)', f) INTO r USING u;
  RETURN CASE WHEN r = u THEN 'unchanged' ELSE 'converted' END;
EXCEPTION WHEN invalid_parameter_value THEN
  RETURN 'error';
END $$;
SELECT ver, try_convert('uuid_v1_to_v6', u) AS v1_to_v6, try_convert('uuid_v6_to_v1', u) AS v6_to_v1
FROM (SELECT ver, ('12345678-9abc-' || to_hex(ver) || 'def-b123-456789abcdef')::uuid AS u
      FROM generate_series(0, 15) AS ver) AS t
ORDER BY ver;
SELECT uuid_v1_to_v6(NULL) IS NULL AS strict_1, uuid_v6_to_v1(NULL) IS NULL AS strict_2;
-- the extremes of the 60-bit timestamp survive the round trip
SELECT uuid_v6_to_v1(uuid_v1_to_v6(u)) = u AS round_trip, uuid_timestamp(uuid_v1_to_v6(u)) = uuid_timestamp(u) AS same_time
FROM (VALUES ('00000000-0000-1000-8000-000000000000'::uuid), ('ffffffff-ffff-1fff-bfff-ffffffffffff')) AS t(u);
