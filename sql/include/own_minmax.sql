-- A schema's own min(uuid) and max(uuid), as polyfills define them
-- (sql/minmax.sql and test/t/008_upgrade.pl install uuidx beside them).
CREATE FUNCTION own_smaller(uuid, uuid) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT
  AS 'SELECT CASE WHEN $1 <= $2 THEN $1 ELSE $2 END';
CREATE FUNCTION own_larger(uuid, uuid) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT
  AS 'SELECT CASE WHEN $1 >= $2 THEN $1 ELSE $2 END';
CREATE AGGREGATE min(uuid) (SFUNC = own_smaller, STYPE = uuid);
CREATE AGGREGATE max(uuid) (SFUNC = own_larger, STYPE = uuid);
