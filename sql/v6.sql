-- uuid_generate_v6(): layout, order, random clock_seq and node, given node.

CREATE TEMP TABLE v6 AS
  SELECT n, uuid_generate_v6() AS u FROM generate_series(1, 100000) AS n;
SELECT count(*) AS values,
       count(DISTINCT u) AS distinct_values,
       bool_and(uuid_version(u) = 6) AS all_version_6,
       bool_and(uuid_variant(u) = 2) AS all_rfc_variant,
       bool_and(substr(u::text, 15, 1) = '6') AS version_nibble_is_6
FROM v6;
SELECT count(*) AS out_of_order
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM v6) s
WHERE u <= prev;
-- Strictly increasing 100-ns timestamps, near the clock.
SELECT count(*) AS timestamp_not_increasing
FROM (SELECT n, u, lag(u) OVER (ORDER BY n) AS prev FROM v6) s
WHERE uuid_timestamp(u) < uuid_timestamp(prev);
SELECT abs(extract(epoch FROM max(uuid_timestamp(u)) - clock_timestamp())) < 5 AS near_clock FROM v6;

-- Random node with the multicast bit (least significant bit of octet 10)
-- set, RFC 9562 section 6.10; clock_seq and node differ from value to value.
SELECT bool_and(get_byte(uuid_send(u), 10) & 1 = 1) AS multicast_bit_set,
       count(DISTINCT uuid_node(u)) > 99000 AS nodes_random,
       count(DISTINCT uuid_clock_seq(u)) > 16000 AS clock_seqs_random
FROM v6;
DROP TABLE v6;

-- A caller-chosen node is kept as given, unicast bit and all.
SELECT uuid_node(u) AS node, uuid_version(u) AS version
FROM (SELECT uuid_generate_v6('08:00:2b:01:02:03') AS u) s;
SELECT count(DISTINCT u) AS distinct_values, count(DISTINCT uuid_node(u)) AS nodes
FROM (SELECT uuid_generate_v6('08:00:2b:01:02:03') AS u FROM generate_series(1, 1000)) s;
SELECT uuid_generate_v6(NULL::macaddr) IS NULL AS strict;
