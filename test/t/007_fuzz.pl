# Hostile input: at least 1,000,000 random 16-byte values through every
# IMMUTABLE function, plus random and out-of-range times and parts, and a
# sample through every error path.  On an assert-enabled build (the matrix
# builds PostgreSQL 18 with --enable-cassert) an assertion failure would
# abort the backend: the test checks the server survived and its log holds
# no TRAP and no crash.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $values = $ENV{UUIDX_FUZZ_VALUES} // 1_000_000;
my $errors = $ENV{UUIDX_FUZZ_ERRORS} // 20_000;

my $node = PostgreSQL::Test::Cluster->new('fuzz');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uuidx');
my $asserts = $node->safe_psql('postgres', 'SHOW debug_assertions');
note "debug_assertions = $asserts";

# md5 of distinct inputs: uniformly distributed 128-bit values, so every
# version and variant occurs (1/16 and 1/2..1/8 of the values).
my $sql = qq{
	SELECT count(*) AS n,
	       count(DISTINCT uuid_version(u)) AS versions,
	       count(DISTINCT uuid_variant(u)) AS variants,
	       count(uuid_timestamp(u)) > 0 AND count(uuid_clock_seq(u)) > 0 AND count(uuid_node(u)) > 0
	       AND count(uuid_v7_to_timestamptz(u)) > 0 AND count(uuid_v7_to_timestamp(u)) > 0 AS fields_seen,
	       count(CASE WHEN uuid_version(u) = 1 THEN uuid_v1_to_v6(u) WHEN uuid_version(u) = 6 THEN uuid_v6_to_v1(u) END) > 0 AS converted,
	       count(uuid_generate_v8_name(u, u::text)) + count(uuid_generate_v8_name(u, uuid_send(u)))
	       + count(uuid_generate_v8_name('3fb32780-953c-4464-9cfd-e85dbbe9843d', u, uuid_send(u))) = 3 * count(*) AS named,
	       count(uuid_v8_from_parts(b & 281474976710655, (b >> 48)::integer & 4095, b & 4611686018427387903)) = count(*) AS from_parts,
	       count(uuid_v7_lower_bound(t)) + count(uuid_v7_upper_bound(t)) = 2 * count(*) AS bounds
	FROM (SELECT md5(i::text || ':' || random()::text)::uuid AS u,
	             ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint AS b,
	             to_timestamp(random() * 281474976710.655) AS t
	      FROM generate_series(1, $values) AS i) s};
my ($n, $versions, $variants, $fields, $converted, $named, $parts, $bounds) =
  split /\|/, $node->safe_psql('postgres', $sql);
is($n, $values, "$values random 16-byte values through every IMMUTABLE function");
is("$versions $variants", '16 4', 'every version and every variant occurred');
is("$fields $converted $named $parts $bounds", 't t t t t', 'every function returned results');

# Error paths, each value in its own subtransaction: conversions of the
# wrong version, unsupported hashspaces, out-of-range parts and times.  Every
# failure must be an ordinary ERROR with the documented SQLSTATE.
my $errsql = qq{
	CREATE FUNCTION fuzz_errors(n integer) RETURNS TABLE (state text, count bigint) LANGUAGE plpgsql AS \$\$
	DECLARE
	  u uuid; b bigint; st text; counts jsonb := '{}';
	BEGIN
	  FOR i IN 1 .. n LOOP
	    u := md5(i::text || 'e' || random()::text)::uuid;
	    b := ('x' || substr(md5(i::text || 'b'), 1, 16))::bit(64)::bigint;
	    FOREACH st IN ARRAY ARRAY['v1v6', 'v6v1', 'hash', 'parts', 'lower', 'upper', 'compat'] LOOP
	      BEGIN
	        CASE st
	          WHEN 'v1v6' THEN PERFORM uuid_v1_to_v6(u);
	          WHEN 'v6v1' THEN PERFORM uuid_v6_to_v1(u);
	          WHEN 'hash' THEN PERFORM uuid_generate_v8_name(u, u, 'x');
	          WHEN 'parts' THEN PERFORM uuid_v8_from_parts(b, (b >> 40)::integer, b # 1);
	          WHEN 'lower' THEN PERFORM uuid_v7_lower_bound(to_timestamp((b >> 20)::double precision));
	          WHEN 'upper' THEN PERFORM uuid_v7_upper_bound(to_timestamp((b >> 20)::double precision));
	          ELSE PERFORM uuid_timestamptz_to_v7(to_timestamp((b >> 20)::double precision));
	        END CASE;
	        counts := jsonb_set(counts, ARRAY['ok'], to_jsonb(coalesce((counts->>'ok')::bigint, 0) + 1));
	      EXCEPTION WHEN OTHERS THEN
	        counts := jsonb_set(counts, ARRAY[SQLSTATE], to_jsonb(coalesce((counts->>SQLSTATE)::bigint, 0) + 1));
	      END;
	    END LOOP;
	  END LOOP;
	  RETURN QUERY SELECT key, value::bigint FROM jsonb_each_text(counts);
	END \$\$;
	SELECT string_agg(state, ' ' ORDER BY state) FROM fuzz_errors($errors);
};
my $states = $node->safe_psql('postgres', $errsql);
# 22003 numeric out of range, 22008 datetime out of range, 22023 invalid
# parameter value; "ok" for the values that were valid.
is($states, '22003 22008 22023 ok', "$errors x 7 error-path calls raised only the documented SQLSTATEs");

is($node->safe_psql('postgres', 'SELECT 1'), '1', 'server still accepts queries');
my $log = slurp_file($node->logfile);
unlike($log, qr/TRAP:|terminated by signal|server process .* was terminated/, 'no assertion failure and no crash in the server log');

$node->stop;
done_testing();
