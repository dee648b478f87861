-- uuid_version, uuid_variant, uuid_timestamp, uuid_clock_seq, uuid_node.

-- RFC test vectors (rfc4122bis-12, "Test Vectors"): v1, v6 and v7 of
-- 2022-02-22 19:22:22 UTC.
SELECT v AS vector, uuid_version(u) AS version, uuid_variant(u) AS variant,
       uuid_timestamp(u) AT TIME ZONE 'UTC' AS utc_time,
       uuid_clock_seq(u) AS clock_seq, uuid_node(u) AS node
FROM (VALUES ('v1', 'C232AB00-9414-11EC-B3C8-9E6BDECED846'::uuid),
             ('v6', '1EC9414C-232A-6B00-B3C8-9E6BDECED846'),
             ('v7', '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'),
             ('v3', '5df41881-3aed-3515-88a7-2f4a814cf09e'),
             ('v4', '919108f7-52d1-4320-9bac-f847db4148a8'),
             ('v5', '2ed6657d-e927-568b-95e1-2665a8aea6a2'),
             ('v8 time', '320C3D4D-CC00-875B-8EC9-32D5F69181C0'),
             ('v8 name', '401835fd-a627-870a-873f-ed73f2bc5b2c')) AS t(v, u);
-- The vector's 0x1EC9414C232AB00 ticks are 1645557742 s after 1970 exactly.
SELECT extract(epoch FROM uuid_timestamp('1EC9414C-232A-6B00-B3C8-9E6BDECED846')) AS unix_seconds;

-- Nil and max UUIDs (RFC 9562 sections 5.9 and 5.10).
SELECT uuid_version(u) AS version, uuid_variant(u) AS variant, uuid_timestamp(u) AS ts,
       uuid_clock_seq(u) AS clock_seq, uuid_node(u) AS node
FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff')) AS t(u);

-- NULL in, NULL out.
SELECT uuid_version(NULL) IS NULL AS a, uuid_variant(NULL) IS NULL AS b,
       uuid_timestamp(NULL) IS NULL AS c, uuid_clock_seq(NULL) IS NULL AS d,
       uuid_node(NULL) IS NULL AS e;

-- All 16 versions under the RFC variant: only 1, 6 and 7 have a time,
-- only 1 and 6 a clock_seq and node.
SELECT ver, uuid_version(u) AS version, uuid_variant(u) AS variant,
       uuid_timestamp(u) IS NOT NULL AS has_time,
       uuid_clock_seq(u) AS clock_seq, uuid_node(u) AS node
FROM (SELECT ver, ('12345678-9abc-' || to_hex(ver) || 'def-b123-456789abcdef')::uuid AS u
      FROM generate_series(0, 15) AS ver) AS t
ORDER BY ver;

-- Every variant: the nibble of octet 8 decides; only variant 2 has a version.
SELECT nib, uuid_variant(u) AS variant, uuid_version(u) AS version,
       uuid_timestamp(u) IS NULL AS no_time, uuid_node(u) IS NULL AS no_node
FROM (SELECT nib, ('12345678-9abc-1def-' || to_hex(nib) || '123-456789abcdef')::uuid AS u
      FROM generate_series(0, 15) AS nib) AS t
ORDER BY nib;

-- Extremes of the time fields.
SELECT uuid_timestamp('00000000-0000-1000-8000-000000000000') AT TIME ZONE 'UTC' AS v1_earliest,
       uuid_timestamp('ffffffff-ffff-1fff-bfff-ffffffffffff') AT TIME ZONE 'UTC' AS v1_latest,
       uuid_timestamp('00000000-0000-6000-8000-000000000000') AT TIME ZONE 'UTC' AS v6_earliest,
       uuid_timestamp('ffffffff-ffff-6fff-bfff-ffffffffffff') AT TIME ZONE 'UTC' AS v6_latest,
       uuid_timestamp('00000000-0000-7000-8000-000000000000') AT TIME ZONE 'UTC' AS v7_earliest,
       uuid_timestamp('ffffffff-ffff-7fff-bfff-ffffffffffff') AT TIME ZONE 'UTC' AS v7_latest;
-- v1/v6 times are truncated to the microsecond, toward the past, also
-- before 1970: 9 ticks (900 ns) after the epoch, and 1 tick before it.
SELECT uuid_timestamp('1b21dd21-3814-6009-8000-000000000000') AT TIME ZONE 'UTC' AS plus_900ns,
       uuid_timestamp('1b21dd21-3813-6fff-8000-000000000000') AT TIME ZONE 'UTC' AS minus_100ns;
-- uuid_timestamp(text), for callers that pass keys as text (pg_partman's
-- time decoder): the time of the UUID the text spells; text that spells
-- none is an error, as for a cast to uuid.
SELECT uuid_timestamp('1EC9414C-232A-6B00-B3C8-9E6BDECED846'::text)
       = uuid_timestamp('1EC9414C-232A-6B00-B3C8-9E6BDECED846'::uuid) AS text_is_uuid,
       uuid_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::text)
       = uuid_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid) AS text_is_uuid_v7,
       uuid_timestamp(NULL::text) IS NULL AS strict;
SELECT uuid_timestamp('1EC9414C-232A-6B00-B3C8'::text);
\echo :LAST_ERROR_SQLSTATE
-- extraction never raises an error: 100,000 arbitrary 16-byte values
SELECT count(*) AS values,
       count(uuid_variant(u)) AS all_have_variant,
       count(uuid_version(u)) = count(*) FILTER (WHERE uuid_variant(u) = 2) AS version_iff_rfc_variant,
       count(uuid_timestamp(u)) = count(*) FILTER (WHERE uuid_version(u) IN (1, 6, 7)) AS time_iff_v1_v6_v7,
       count(uuid_node(u)) = count(*) FILTER (WHERE uuid_version(u) IN (1, 6)) AS node_iff_v1_v6
FROM (SELECT md5(i::text)::uuid AS u FROM generate_series(1, 100000) i) s;
