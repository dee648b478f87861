-- A schema that holds uuid_version(uuid) and uuid_timestamp(uuid) before
-- uuidx does (TimescaleDB's, from 2.23, in public as uuidx is; stood in for
-- here by functions of the test's own, which read v7 keys only, as
-- TimescaleDB's uuid_timestamp() does): CREATE EXTENSION uuidx succeeds,
-- leaves them as they are with a WARNING each, and unqualified calls reach
-- them.  uuidx's C code does not take them for its own: its time queries
-- rewrite uuidx's forms only, and a CHECK written with the schema's
-- uuid_version() declares nothing; uuidx_generator_advance_columns() reads
-- v6 keys with uuidx's own functions.  (test/t/022_neighbours.pl does the
-- same beside TimescaleDB itself.)
CREATE DATABASE regress_uuidx_shared_names;
\c regress_uuidx_shared_names
CREATE FUNCTION uuid_version(uuid) RETURNS smallint LANGUAGE sql IMMUTABLE STRICT
  AS $$SELECT CASE WHEN get_byte(uuid_send($1), 8) & 192 = 128 THEN (get_byte(uuid_send($1), 6) >> 4)::smallint END$$;
CREATE FUNCTION uuid_timestamp(uuid) RETURNS timestamptz LANGUAGE sql IMMUTABLE STRICT
  AS $$SELECT CASE WHEN uuid_version($1) = 7
               THEN to_timestamp(('x' || substr(replace($1::text, '-', ''), 1, 12))::bit(48)::int8 / 1000.0) END$$;
CREATE EXTENSION uuidx;

-- uuidx's members of those names: uuid_timestamp(text) only.
SELECT p.oid::regprocedure AS member
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidx') AND d.deptype = 'e'
  AND p.proname IN ('uuid_version', 'uuid_timestamp')
ORDER BY 1;
SELECT * FROM uuidx_check_members();

-- Unqualified calls reach the schema's: NULL for a v6 key's time.
CREATE TABLE keys (n int, id uuid);
INSERT INTO keys SELECT g, CASE WHEN g % 2 = 0 THEN uuid_generate_v7() ELSE uuid_generate_v6() END
FROM generate_series(1, 2000) g;
CREATE INDEX ON keys (id);
ANALYZE keys;
SELECT uuid_version(id) AS version, count(*), count(uuid_timestamp(id)) AS with_time
FROM keys GROUP BY 1 ORDER BY 1;

-- The schema's uuid_timestamp() is not uuidx's form: left as written;
-- uuid_v7_to_timestamptz(), uuidx's, is.
CREATE FUNCTION plan_of(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    RETURN NEXT line;
  END LOOP;
END $$;
SELECT plan_of($$SELECT count(*) FROM keys WHERE uuid_timestamp(id) >= now() - interval '1 hour'$$);
SELECT count(*) = 1000 AS schema_form_rows FROM keys WHERE uuid_timestamp(id) >= now() - interval '1 hour';
SELECT bool_or(line LIKE '%uuidx_time%') AS uuidx_form_rewritten
FROM plan_of($$SELECT count(*) FROM keys WHERE uuid_v7_to_timestamptz(id) >= now() - interval '1 hour'$$) line;
SELECT count(*) = 1000 AS uuidx_form_rows FROM keys WHERE uuid_v7_to_timestamptz(id) >= now() - interval '1 hour';

-- A CHECK written with the schema's uuid_version() declares nothing to
-- uuidx: id <@ r keeps both versions' arms.
CREATE TABLE v7_only (id uuid CHECK (uuid_version(id) = 7));
INSERT INTO v7_only SELECT uuid_generate_v7() FROM generate_series(1, 100);
SELECT plan_of($$SELECT * FROM v7_only WHERE id <@ tstzrange(now() - interval '1 hour', NULL)$$);

-- uuidx_generator_advance_columns() reads the greatest v6 key's time with
-- uuidx's functions: the v6 generator stands past it.
CREATE TABLE v6_keys (id uuid PRIMARY KEY DEFAULT uuid_generate_v6());
INSERT INTO v6_keys VALUES (uuid_v1_to_v6('11111111-1111-1111-8111-111111111111'::uuid));
INSERT INTO v6_keys DEFAULT VALUES;
SELECT table_name, column_name, version, greatest_key = (SELECT max(id) FROM v6_keys) AS greatest_found,
       advanced_to >= uuid_timestamp((SELECT max(id) FROM v6_keys)::text) AS advanced_past_it, note
FROM uuidx_generator_advance_columns() ORDER BY 1, 2, 3;

-- TimescaleDB's catalog is read only where it is TimescaleDB's: a schema
-- _timescaledb_catalog that is a member of the extension timescaledb
-- (stood in for by plpgsql, renamed for the transaction), whose tables
-- have the columns uuidx reads, of their types.  Not the extension's, or
-- of another shape (column_name an integer), it is not read: the same
-- rows, no crash.  Each case has a table of its own: what uuidx reads of a
-- table is kept until the table changes.
BEGIN;
UPDATE pg_extension SET extname = 'timescaledb' WHERE extname = 'plpgsql';
CREATE SCHEMA _timescaledb_catalog;
CREATE TABLE _timescaledb_catalog.hypertable (id int, schema_name name, table_name name);
CREATE TABLE _timescaledb_catalog.dimension (hypertable_id int, column_name name, column_type regtype,
                                             interval_length bigint, partitioning_func name);
CREATE FUNCTION hypertable(n int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE ht%s (id uuid NOT NULL)', n);
  EXECUTE format('CREATE TABLE ht%s_chunk () INHERITS (ht%s)', n, n);
  EXECUTE format('INSERT INTO ht%s_chunk SELECT id FROM keys', n);
  INSERT INTO _timescaledb_catalog.hypertable VALUES (n, 'public', 'ht' || n);
  INSERT INTO _timescaledb_catalog.dimension VALUES (n, 'id', 'uuid', 86400000000, NULL);
END $$;
SELECT hypertable(n) FROM generate_series(1, 3) n;
CREATE FUNCTION window_of(tab text) RETURNS TABLE (count bigint, read_as_dimension boolean)
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$SELECT count(*) FROM %s WHERE id <@ tstzrange(now() - interval '1 hour', NULL)$q$, tab)
    INTO count;
  SELECT bool_or(line LIKE '%GREATEST%') INTO read_as_dimension
  FROM plan_of(format($q$SELECT * FROM %s WHERE id <@ tstzrange(now() - interval '1 hour', NULL)$q$, tab)) line;
  RETURN NEXT;
END $$;
SELECT * FROM window_of('ht1');
ALTER EXTENSION timescaledb ADD SCHEMA _timescaledb_catalog;
ALTER TABLE _timescaledb_catalog.dimension ALTER column_name TYPE int USING 1;
SELECT * FROM window_of('ht2');
-- TimescaleDB's, of its shape: the column is the hypertable's dimension,
-- and the v7 arm carries key bounds clamped to the v7 keys.
ALTER TABLE _timescaledb_catalog.dimension ALTER column_name TYPE name USING 'id';
SELECT * FROM window_of('ht3');
ROLLBACK;

\c contrib_regression
DROP DATABASE regress_uuidx_shared_names;
