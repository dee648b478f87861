-- uuidx 1.4 -> 1.5: upgrade script.  It leaves what sql/uuidx.sql creates
-- (t/008_upgrade.pl compares the two).  Every type referenced is qualified
-- with pg_catalog.

\echo Use "ALTER EXTENSION uuidx UPDATE TO '1.5'" to load this file. \quit

-- uuidx_mark_status(): the mark worker seen, and the mark's writer.

CREATE FUNCTION uuidx_mark_status(
    OUT worker_running pg_catalog.bool,
    OUT worker_pid pg_catalog.int4,
    OUT worker_last_move pg_catalog.timestamptz,
    OUT worker_last_sync pg_catalog.timestamptz,
    OUT writer_pid pg_catalog.int4,
    OUT durable_writes pg_catalog.int8,
    OUT unsynced pg_catalog.bool)
RETURNS record
AS 'MODULE_PATHNAME', 'uuidx_mark_status'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION uuidx_mark_status() IS
'the high-water mark''s upkeep: whether the mark worker runs, when it last moved or synced the mark, which process writes it now, its durable writes, and whether a replayed mark awaits its fsync';
