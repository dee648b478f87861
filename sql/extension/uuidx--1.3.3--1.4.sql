-- uuidx 1.3.3 -> 1.4: upgrade script.  It leaves what sql/uuidx.sql creates
-- (t/008_upgrade.pl compares the two).  Every type and function referenced
-- is qualified with pg_catalog, or is the extension's own, created in this
-- script's schema or found through pg_extension when it runs.

\echo Use "ALTER EXTENSION uuidx UPDATE TO '1.4'" to load this file. \quit

-- uuidx_generator_advance_columns() finds the columns uuidx_core18's
-- uuidv7() and uuidv7(interval) fill, too.

CREATE OR REPLACE FUNCTION uuidx_generator_advance_columns(
    OUT table_name pg_catalog.regclass,
    OUT column_name pg_catalog.name,
    OUT version pg_catalog.int2,
    OUT shift pg_catalog.interval,
    OUT greatest_key pg_catalog.uuid,
    OUT advanced_to pg_catalog.timestamptz,
    OUT note pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
    ext text;                   -- uuidx's schema, quoted
    const_shift constant text := '(?:uuid_generate_v7|uuidv7)\(((''(?:[^'']|'''')*'')::interval(?: [a-z]+(?: to [a-z]+)?)?(?:\(\d+\))?)\)';
    c record;
    leaf record;
    base oid;
    key text;                   -- the column as a uuid, in SQL
    keytime text;               -- that key's time, in SQL
    below text;                 -- index conditions: keys of times up to $2
    above text;                 -- and from $2 to $3
    shifts interval[];
    s interval;
    bound timestamptz;
    lim timestamptz;
    k uuid;
    ktime timestamptz;
    far uuid;
    t timestamptz;
    plain_key uuid;             -- the greatest key a plain call must pass
    shifted_need timestamptz;   -- the time shifted calls must pass
    leaf_note text;
    leaf_shift interval;
    leaf_need timestamptz;
    lit text;
    rows_of text;
    fartime timestamptz;
BEGIN
    SELECT quote_ident(n.nspname) INTO ext
      FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'uuidx';
    FOR c IN
        WITH RECURSIVE gens AS (
            -- uuidx's generators, and uuidx_core18's uuidv7(), by their C code
            SELECT p.oid, substr(p.prosrc, 17, 1)::int2 AS version, p.prosrc = 'uuidx_generate_v7_interval' AS shifted
              FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
             WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass
               AND d.refobjid IN (SELECT oid FROM pg_extension WHERE extname IN ('uuidx', 'uuidx_core18')) AND d.deptype = 'e'
               AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
               AND p.prosrc IN ('uuidx_generate_v6', 'uuidx_generate_v6_macaddr', 'uuidx_generate_v7',
                                'uuidx_generate_v7_interval', 'uuidx_generate_v8')),
        -- domains whose DEFAULT calls a generator, and domains over them
        -- without a DEFAULT of their own
        doms (oid, expr, gen) AS (
            SELECT t.oid, pg_get_expr(t.typdefaultbin, 0), d.refobjid
              FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
             WHERE t.typtype = 'd' AND d.refclassid = 'pg_proc'::regclass AND d.refobjid IN (SELECT oid FROM gens)
            UNION ALL
            SELECT t.oid, doms.expr, doms.gen
              FROM pg_type t JOIN doms ON t.typbasetype = doms.oid
             WHERE t.typtype = 'd' AND t.typdefaultbin IS NULL),
        cols (rel, att, typ, expr, gen) AS (
            SELECT a.attrelid, a.attname, a.atttypid, pg_get_expr(ad.adbin, ad.adrelid), d.refobjid
              FROM pg_attrdef ad
              JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
              JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid
             WHERE d.refclassid = 'pg_proc'::regclass AND d.refobjid IN (SELECT oid FROM gens)
            UNION ALL
            SELECT a.attrelid, a.attname, a.atttypid, doms.expr, doms.gen
              FROM pg_attribute a JOIN doms ON a.atttypid = doms.oid
             WHERE a.attnum > 0 AND NOT a.attisdropped AND NOT a.atthasdef),
        -- each relation's own calls, per column and version
        own AS (
            SELECT cols.rel, cols.att, cols.typ, g.version,
                   coalesce(array_agg(DISTINCT cols.expr) FILTER (WHERE g.shifted), '{}') AS exprs,
                   bool_or(NOT g.shifted) AS plain
              FROM cols JOIN gens g ON g.oid = cols.gen
              JOIN pg_class r ON r.oid = cols.rel
             WHERE r.relkind IN ('r', 'p', 'f', 'v')
               AND (r.relpersistence <> 't' OR r.relnamespace = pg_my_temp_schema())
             GROUP BY 1, 2, 3, 4),
        -- one row per topmost such relation: its rows, and its children's,
        -- which its calls fill as well as their own
        roots AS (
            SELECT o.* FROM own o
             WHERE NOT EXISTS (
                   WITH RECURSIVE up (rel) AS (
                       SELECT inhparent FROM pg_inherits WHERE inhrelid = o.rel
                       UNION
                       SELECT i.inhparent FROM up JOIN pg_inherits i ON i.inhrelid = up.rel)
                   SELECT FROM up JOIN own p ON p.rel = up.rel AND p.att = o.att AND p.version = o.version)),
        tree (root, att, version, rel, exprs, plain) AS (
            SELECT r.rel, r.att, r.version, r.rel, r.exprs, r.plain FROM roots r
            UNION ALL
            SELECT t.root, t.att, t.version, i.inhrelid, t.exprs || coalesce(o.exprs, '{}'), t.plain OR coalesce(o.plain, false)
              FROM tree t JOIN pg_inherits i ON i.inhparent = t.rel
              LEFT JOIN own o ON o.rel = i.inhrelid AND o.att = t.att AND o.version = t.version)
        SELECT r.rel, r.att, r.typ, r.version,
               (SELECT coalesce(jsonb_agg(jsonb_build_object('rel', t.rel::oid, 'exprs', to_jsonb(t.exprs), 'plain', t.plain)
                                          ORDER BY t.rel::regclass::text), '[]')
                  FROM tree t JOIN pg_class l ON l.oid = t.rel
                 WHERE t.root = r.rel AND t.att = r.att AND t.version = r.version
                   AND (l.relkind IN ('r', 'f') OR (l.relkind = 'v' AND t.rel = r.rel))) AS leaves
          FROM roots r
         ORDER BY r.rel::regclass::text, r.att, r.version
    LOOP
        table_name := c.rel;
        column_name := c.att;
        version := c.version;
        shift := NULL;
        greatest_key := NULL;
        advanced_to := NULL;
        note := NULL;
        plain_key := NULL;
        shifted_need := NULL;

        -- the column's keys as uuids, their time, and bounds its index can use
        base := c.typ;
        WHILE (SELECT typtype FROM pg_type WHERE oid = base) = 'd' LOOP
            base := (SELECT typbasetype FROM pg_type WHERE oid = base);
        END LOOP;
        keytime := CASE WHEN c.version = 6 THEN format('%s.uuid_timestamp(k)', ext)
                        ELSE $q$('epoch'::timestamptz + ('x' || substr(replace(k::text, '-', ''), 1, 12))::bit(48)::int8 * interval '1 millisecond')$q$
                   END;
        IF base = 'uuid'::regtype THEN
            key := quote_ident(c.att);
            IF c.version = 6 THEN
                below := format($q$k <= %1$s.uuidx_time_bound(tstzrange($2, $2, '[]'), 6, true)$q$, ext);
                above := format($q$k > %1$s.uuidx_time_bound(tstzrange($2, $2, '[]'), 6, true) AND k <= %1$s.uuidx_time_bound(tstzrange($3, $3, '[]'), 6, true)$q$, ext);
            ELSE
                -- (a v8 key sorts after the v7 keys of its millisecond)
                below := format($q$k < %1$s.uuid_v7_lower_bound(date_trunc('milliseconds', $2) + interval '1 millisecond')$q$, ext);
                above := format($q$k >= %1$s.uuid_v7_lower_bound(date_trunc('milliseconds', $2) + interval '1 millisecond') AND k < %1$s.uuid_v7_lower_bound($3)$q$, ext);
            END IF;
        ELSIF base IN ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype) THEN
            key := format('CASE WHEN length(%1$I::text) = 26 THEN %2$s.ulid_to_uuid(%1$I::text) ELSE %1$I::text::uuid END',
                          c.att, ext);
            below := 'true';
            above := 'true';
        ELSE
            note := format('not advanced: a column of type %s holds no UUID this function reads', format_type(c.typ, NULL));
            RETURN NEXT;
            CONTINUE;
        END IF;

        -- each relation that holds the rows, with the calls that fill it
        FOR leaf IN SELECT (l->>'rel')::oid AS rel, (l->>'plain')::bool AS plain,
                           ARRAY(SELECT jsonb_array_elements_text(l->'exprs')) AS exprs
                      FROM jsonb_array_elements(c.leaves) l
        LOOP
            leaf_note := NULL;
            BEGIN
                -- the constant shifts of shifted calls; any other is an error
                IF EXISTS (SELECT FROM unnest(leaf.exprs) e
                            WHERE (SELECT count(*) FROM regexp_matches(e, '(?:uuid_generate_v7|uuidv7)\((?!\))', 'g'))
                               <> (SELECT count(*) FROM regexp_matches(e, const_shift, 'g'))) THEN
                    RAISE EXCEPTION 'its DEFAULT shifts uuid_generate_v7() by an interval that is not a constant: %',
                        (SELECT string_agg(DISTINCT e, ', ') FROM unnest(leaf.exprs) e)
                        USING ERRCODE = 'feature_not_supported';
                END IF;
                shifts := '{}';
                FOR lit IN SELECT DISTINCT m[1] FROM unnest(leaf.exprs) e, regexp_matches(e, const_shift, 'g') m LOOP
                    EXECUTE 'SELECT ' || lit INTO s;    -- a literal and a cast, as matched
                    shifts := shifts || s;
                    IF date_part('day', s) <> 0 OR date_part('month', s) <> 0 OR date_part('year', s) <> 0 THEN
                        leaf_note := format('its shift %s has days or months, which each session adds in its own TimeZone: passed for sessions in %s',
                                            s, current_setting('TimeZone'));
                    END IF;
                END LOOP;
                leaf_shift := (SELECT min(x) FROM unnest(shifts || CASE WHEN leaf.plain THEN interval '0' END) x);
                shift := least(shift, leaf_shift);

                -- its greatest key within the bound, and the greatest beyond
                -- (up to a century)
                bound := clock_timestamp() + interval '24 hours' - interval '1 second';
                lim := bound + leaf_shift - interval '1 millisecond';
                rows_of := format('(SELECT %s AS k FROM %s %s) s', key,
                                  CASE WHEN (SELECT relkind FROM pg_class WHERE oid = leaf.rel) = 'v' THEN '' ELSE 'ONLY' END,
                                  leaf.rel::regclass);
                EXECUTE format('SELECT k, %4$s FROM %1$s WHERE %2$s.uuid_version(k) = $1 AND %3$s AND %4$s <= $2
                                 ORDER BY k DESC LIMIT 1', rows_of, ext, below, keytime)
                  INTO k, ktime USING c.version, lim;
                EXECUTE format('SELECT k, %4$s FROM %1$s WHERE %2$s.uuid_version(k) = $1 AND %3$s AND %4$s > $2
                                 ORDER BY k DESC LIMIT 1', rows_of, ext, above, keytime)
                  INTO far, fartime USING c.version, lim, lim + interval '100 years';
                IF far IS NOT NULL THEN
                    leaf_note := concat_ws('; ', leaf_note,
                        format('its key %s of %s is more than 24 hours ahead of the clock: passed its greatest key within that bound', far, fartime));
                END IF;

                -- what passes it: the key itself for a plain call; for a
                -- shifted one, a time t with t + shift past the key's time
                leaf_need := NULL;
                IF k IS NOT NULL THEN
                    IF c.version <> 6 THEN
                        ktime := ktime + interval '999 microseconds';    -- its millisecond's last
                    END IF;
                    FOREACH s IN ARRAY shifts LOOP
                        t := ktime + interval '1 microsecond' - s;
                        FOR i IN 1 .. 10 LOOP
                            EXIT WHEN t + s > ktime;
                            t := t + ((ktime + interval '1 microsecond') - (t + s));
                        END LOOP;
                        IF t + s <= ktime OR t > bound THEN
                            RAISE EXCEPTION 'its greatest key within 24 hours of the clock, %, needs the generators at %, with its shift %', k, t, s
                                USING ERRCODE = 'invalid_parameter_value';
                        END IF;
                        leaf_need := greatest(leaf_need, t);
                    END LOOP;
                END IF;

                -- kept for the column; then this block's subtransaction
                -- ends in an error of its own, so that the locks of what it
                -- read go (a call holds no lock on every table at once)
                IF k IS NOT NULL THEN
                    greatest_key := greatest(greatest_key, k);
                    plain_key := CASE WHEN leaf.plain THEN greatest(plain_key, k) ELSE plain_key END;
                    shifted_need := greatest(shifted_need, leaf_need);
                END IF;
                RAISE EXCEPTION USING ERRCODE = 'UX000';
            EXCEPTION
                WHEN SQLSTATE 'UX000' THEN
                    NULL;
                WHEN OTHERS THEN
                    leaf_note := format('not advanced: %s (SQLSTATE %s)', SQLERRM, SQLSTATE);
            END;
            IF leaf_note IS NOT NULL THEN
                note := concat_ws('; ', note, CASE WHEN leaf.rel <> c.rel THEN leaf.rel::regclass || ': ' ELSE '' END || leaf_note);
            END IF;
        END LOOP;

        IF greatest_key IS NULL THEN
            note := coalesce(note, format('no key of version %s', c.version));
        ELSE
            BEGIN
                IF plain_key IS NOT NULL THEN
                    EXECUTE format('SELECT %s.uuidx_generator_advance($1)', ext) INTO advanced_to USING plain_key;
                END IF;
                IF shifted_need IS NOT NULL THEN
                    EXECUTE format('SELECT %s.uuidx_generator_advance($1)', ext) INTO t USING shifted_need;
                    advanced_to := greatest(advanced_to, t);
                END IF;
            EXCEPTION WHEN OTHERS THEN
                advanced_to := NULL;
                note := concat_ws('; ', note, format('not advanced: %s (SQLSTATE %s)', SQLERRM, SQLSTATE));
            END;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;
COMMENT ON FUNCTION uuidx_generator_advance_columns() IS
'advances the generators past the greatest key of every column of this database whose DEFAULT, or its domain''s, calls one of them; one row per column and version';

-- min(uuid) and max(uuid) in the extension's schema, also where pg_catalog
-- has them (serving schema-qualified calls, as dumps write them), unless
-- the schema has its own, which is left as it is with a WARNING.

DO $$
DECLARE
  agg text;
  sig pg_catalog.regprocedure;
BEGIN
  FOREACH agg IN ARRAY ARRAY['min', 'max'] LOOP
    sig := pg_catalog.to_regprocedure(pg_catalog.format('%I.%s(pg_catalog.uuid)', pg_catalog.current_schema(), agg));
    IF sig IS NULL THEN
      EXECUTE pg_catalog.format('CREATE AGGREGATE %s(pg_catalog.uuid) (SFUNC = %s, STYPE = pg_catalog.uuid, COMBINEFUNC = %2$s, SORTOP = OPERATOR(pg_catalog.%s), PARALLEL = SAFE)',
                                agg, CASE agg WHEN 'min' THEN 'uuidx_smaller' ELSE 'uuidx_larger' END,
                                CASE agg WHEN 'min' THEN '<' ELSE '>' END);
      EXECUTE pg_catalog.format('COMMENT ON AGGREGATE %s(pg_catalog.uuid) IS %L', agg,
                                CASE agg WHEN 'min' THEN 'the smallest UUID (uuidx)' ELSE 'the largest UUID (uuidx)' END);
    ELSIF EXISTS (SELECT FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
                   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND d.objid OPERATOR(pg_catalog.=) sig::pg_catalog.oid
                     AND e.extname = 'uuidx' AND d.deptype = 'e') THEN
      EXECUTE pg_catalog.format('COMMENT ON AGGREGATE %s(pg_catalog.uuid) IS %L', agg,
                                CASE agg WHEN 'min' THEN 'the smallest UUID (uuidx)' ELSE 'the largest UUID (uuidx)' END);
    ELSE
      RAISE WARNING 'schema "%" already has %(uuid), which is not uuidx''s: left as it is', pg_catalog.current_schema(), agg
        USING DETAIL = 'uuidx creates its ' || agg || '(uuid) only in a schema that has none.',
              HINT = 'A dump of this database restores uuidx''s first, and then fails to create that schema''s: replace it with uuidx''s as the README shows, or create uuidx in another schema.';
    END IF;
  END LOOP;
END $$;

-- Members replaced from outside: a migration's CREATE OR REPLACE FUNCTION
-- uuid_generate_v7() (a polyfill for servers without uuidx) keeps the
-- function a member of the extension, and every DEFAULT that calls it, but
-- runs the migration's code: its keys are not uuidx's, nor in its order.
-- A row per function of uuidx or uuidx_core18 that is no longer what their
-- scripts made: the C function of uuidx's library its name gives (as
-- sql/catalog.sql checks; uuidx_core18's named one by one, its uuidv4()
-- core's gen_random_uuid()), PL/pgSQL or SQL for the two functions in
-- those, uuidx_smaller and uuidx_larger for the aggregates.
CREATE FUNCTION uuidx_check_members(
    OUT member pg_catalog.regprocedure,
    OUT extension pg_catalog.name,
    OUT language pg_catalog.name,
    OUT note pg_catalog.text)
RETURNS SETOF record
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT p.oid::regprocedure, e.extname, l.lanname,
       format('not %s''s: %s', e.extname,
              CASE WHEN p.prokind = 'a' THEN 'an aggregate of another transition function, ' || a.aggtransfn
                   WHEN l.lanname = 'c' THEN format('C code of %s (%s)', p.probin, p.prosrc)
                   ELSE format('%s code', l.lanname) END)
  FROM pg_depend d
  JOIN pg_extension e ON e.oid = d.refobjid
  JOIN pg_proc p ON p.oid = d.objid
  JOIN pg_language l ON l.oid = p.prolang
  LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
 WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND e.extname IN ('uuidx', 'uuidx_core18')
   AND NOT CASE
         WHEN p.prokind = 'a' THEN a.aggtransfn::oid IN (SELECT x.objid FROM pg_depend x
                                                        JOIN pg_proc t ON t.oid = x.objid
                                                       WHERE x.refobjid = e.oid AND x.deptype = 'e'
                                                         AND t.proname IN ('uuidx_smaller', 'uuidx_larger'))
         WHEN p.proname = 'uuidx_generator_advance_columns' OR p.proname = 'uuidx_check_members'
           THEN l.lanname IN ('plpgsql', 'sql')
         WHEN e.extname = 'uuidx_core18'
           THEN p.prosrc = CASE p.proname || '/' || p.pronargs
                  WHEN 'uuidv4/0' THEN 'gen_random_uuid'
                  WHEN 'uuidv7/0' THEN 'uuidx_generate_v7'
                  WHEN 'uuidv7/1' THEN 'uuidx_generate_v7_interval'
                  WHEN 'uuid_extract_timestamp/1' THEN 'uuidx_core_extract_timestamp'
                  WHEN 'uuid_extract_version/1' THEN 'uuidx_version' END
                AND CASE WHEN p.proname = 'uuidv4' THEN l.lanname = 'internal'
                         ELSE l.lanname = 'c' AND p.probin = '$libdir/uuidx' END
         -- uuidx's C entry points: uuidx_, the name without its uuid_ or
         -- uuidx_ prefix, and for an overload its last arguments' types
         ELSE l.lanname = 'c' AND p.probin = '$libdir/uuidx'
              AND p.prosrc IN (SELECT 'uuidx_' || regexp_replace(p.proname, '^uuidx?_', '')
                                      || coalesce('_' || (SELECT string_agg(t.typname, '_' ORDER BY a.n)
                                                           FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(typ, n)
                                                           JOIN pg_type t ON t.oid = a.typ
                                                          WHERE a.n > p.pronargs - k), '')
                                 FROM generate_series(0, p.pronargs) k)
       END
 ORDER BY 1::text
$$;
COMMENT ON FUNCTION uuidx_check_members() IS
'the functions of uuidx and uuidx_core18 replaced from outside (CREATE OR REPLACE FUNCTION), one row each';
