# A foreign table's CHECK constraints declare nothing: PostgreSQL does not
# enforce them, so the rows may hold any version whatever they say.  A
# foreign table (file_fdw, reading a file the test writes) declared to hold
# v7 keys of the RFC variant, holding v6, v1 and v4 keys beside them: the
# time forms give the functions' own rows, as on a table that declares
# nothing, and uuid_timestamp(id) is not rewritten into a v7 key range.
#
# A TAP test, not a regression test, because file_fdw is a contrib module
# that a PostgreSQL under test may not have: where it is missing the test
# skips, saying so.  (Debian's servers have it, and tools/build-pg.sh
# builds it into the assert-enabled 18; sql/time_range_rules.sql and
# time_range_random.sql read foreign partitions too.)
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('foreign');
my $control = $node->config_data('--sharedir') . '/extension/file_fdw.control';
plan skip_all => "file_fdw is not installed in this PostgreSQL ($control)" unless -f $control;

$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'\ntimezone = 'UTC'");
$node->start;

# Keys of one day, a minute apart, as the file holds them: every
# fourth a v7, then a v6, a v1 and a v4.
my $keys = $node->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE FUNCTION v6_at(ts timestamptz) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
	  SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-6' || substr(h, 13, 3) || '-8000-000000000000')::uuid
	  FROM (SELECT lpad(to_hex((extract(epoch FROM ts) * 10000000)::bigint + 122192928000000000), 15, '0') AS h) s
	$$;
	CREATE TABLE keys AS
	SELECT CASE g % 4 WHEN 0 THEN uuid_timestamptz_to_v7(t, true) WHEN 1 THEN v6_at(t)
	                  WHEN 2 THEN uuid_v6_to_v1(v6_at(t)) ELSE md5(g::text)::uuid END AS id
	FROM (SELECT g, '2026-11-20 00:00+00'::timestamptz + g * interval '1 minute' AS t
	      FROM generate_series(0, 1439) g) s;
	SELECT string_agg(id::text, ' ' ORDER BY id) FROM keys;});
my $file = PostgreSQL::Test::Utils::tempdir() . '/keys.txt';
open my $fh, '>', $file or die "$file: $!";
print $fh join("\n", split / /, $keys), "\n";
close $fh;
chmod 0644, $file;

$node->safe_psql('postgres', qq{
	CREATE EXTENSION file_fdw;
	CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
	CREATE FOREIGN TABLE foreign_keys (id uuid CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2))
	  SERVER files OPTIONS (filename '$file');
	-- the same CHECK on a real table, where it is enforced and read
	CREATE TABLE declared_keys (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2));
	INSERT INTO declared_keys SELECT id FROM keys WHERE uuid_version(id) = 7;
	ANALYZE declared_keys;});

is($node->safe_psql('postgres', q{SELECT count(*), count(*) FILTER (WHERE uuid_version(id) IN (1, 6)) >= 720 FROM foreign_keys}),
	'1440|t', 'the foreign table holds v6 and v1 keys, whatever its CHECK says');

my @conditions = (
	q{uuid_timestamp(id) >= '2026-11-20 12:00+00'},
	q{uuid_timestamp(id) BETWEEN '2026-11-20 06:00+00' AND '2026-11-20 07:00+00'},
	q{uuid_timestamp(id) <@ tstzrange('2026-11-20 06:00+00', '2026-11-20 07:00+00')},
	q{uuid_v7_to_timestamptz(id) < '2026-11-20 01:00+00'});
for my $cond (@conditions)
{
	(my $column = $cond) =~ s/(uuid_timestamp|uuid_v7_to_timestamptz)\(id\)/$1 eq 'uuid_timestamp' ? 't_u' : 't_v7'/e;
	my $defined = $node->safe_psql('postgres', qq{
		WITH m AS MATERIALIZED (SELECT uuid_timestamp(id) AS t_u, uuid_v7_to_timestamptz(id) AS t_v7 FROM keys)
		SELECT count(*) FROM m WHERE $column});
	is($node->safe_psql('postgres', "SELECT count(*) FROM foreign_keys WHERE $cond"), $defined,
		"foreign table: $cond gives the function's $defined rows");
	# uuid_v7_to_timestamptz reads v7 keys only: its rewrite is exact on
	# any column, and may stand.
	next if $cond !~ /^uuid_timestamp/;
	like($node->safe_psql('postgres', "EXPLAIN (COSTS OFF) SELECT count(*) FROM foreign_keys WHERE $cond"),
		qr/Filter: .*uuid_timestamp\(id\)/, "foreign table: $cond filtered as written");
}

# The contrast: on a table, which enforces the same CHECK, uuid_timestamp
# is rewritten into the key's range.
unlike($node->safe_psql('postgres', "EXPLAIN (COSTS OFF) SELECT count(*) FROM declared_keys WHERE $conditions[1]"),
	qr/uuid_timestamp\(id\)/, 'the same CHECK on a table is read: the form is rewritten');

$node->stop;
done_testing();
