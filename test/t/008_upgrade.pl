# Releases: install the oldest installed version of uuidx, walk ALTER
# EXTENSION ... UPDATE through every release to the default version, and
# check the result equals a fresh install: same member objects, same
# definitions, same comments.  Fails when a release's SQL changes ship
# without an upgrade script, or an upgrade script differs from the install
# script of its release.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
$node->start;

my @versions = split /\n/, $node->safe_psql('postgres', q{
	SELECT version FROM pg_available_extension_versions WHERE name = 'uuidx'
	ORDER BY string_to_array(version, '.')::int[]});
my $default = $node->safe_psql('postgres',
	"SELECT default_version FROM pg_available_extensions WHERE name = 'uuidx'");
my $oldest = $versions[0];
note "installed versions: @versions; default $default";
is($versions[-1], $default, 'the default version is the newest release');

# Every release can be reached from the oldest by upgrade scripts.
for my $v (@versions[1 .. $#versions])
{
	my $path = $node->safe_psql('postgres',
		"SELECT path FROM pg_extension_update_paths('uuidx') WHERE source = '$oldest' AND target = '$v'");
	ok($path ne '', "upgrade path $oldest -> $v: $path");
}

# Describe every member object of the extension in a database.
my $describe = q{
	SELECT string_agg(descr, E'\n' ORDER BY descr) FROM (
	  SELECT pg_describe_object(d.classid, d.objid, 0)
	         || coalesce(E'\n' || pg_get_functiondef(d.objid), '')
	         || coalesce(E'\n  comment: ' || obj_description(d.objid, d.classid::regclass::name), '') AS descr
	  FROM pg_depend d
	  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
	  WHERE d.deptype = 'e' AND d.classid = 'pg_proc'::regclass
	  UNION ALL
	  SELECT pg_describe_object(d.classid, d.objid, 0)
	  FROM pg_depend d
	  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
	  WHERE d.deptype = 'e' AND d.classid <> 'pg_proc'::regclass) s};

$node->safe_psql('postgres', 'CREATE DATABASE walked');
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('walked', "CREATE EXTENSION uuidx VERSION '$oldest'");
my $steps = 0;
for my $v (@versions[1 .. $#versions])
{
	$node->safe_psql('walked', "ALTER EXTENSION uuidx UPDATE TO '$v'");
	$steps++;
}
$node->safe_psql('fresh', 'CREATE EXTENSION uuidx');
is($node->safe_psql('walked', "SELECT extversion FROM pg_extension WHERE extname = 'uuidx'"),
	$default, "walked $steps upgrade steps from $oldest to $default");

my $walked = $node->safe_psql('walked', $describe);
my $fresh = $node->safe_psql('fresh', $describe);
ok($fresh =~ /uuid_generate_v7/, 'the description lists the functions with their definitions');
is($walked, $fresh, "upgraded from $oldest equals a fresh install of $default");

# The upgraded extension works.
is($node->safe_psql('walked', 'SELECT uuid_version(uuid_generate_v7())'), '7', 'upgraded extension generates');

$node->stop;
done_testing();
