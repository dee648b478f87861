# Releases: install the oldest installed version of uuidx, walk ALTER
# EXTENSION ... UPDATE through every release to the default version, and
# check the result equals a fresh install: same member objects, same
# definitions, same comments.  Fails when a release's SQL changes ship
# without an upgrade script, or an upgrade script differs from the install
# script of its release.
#
# Released scripts are frozen: test/releases.txt lists each with its
# SHA-256, and the installed copies must match, so a released script edited
# in place (which would make the walk start from something that never
# shipped) fails here; only a later release's install script, built from
# sql/extension/uuidx.sql while that release was current, may be left out.  Every script of a version older than
# the default must be listed.  Finally the comparison itself is shown to
# see a changed definition and a missing member.
use strict;
use warnings FATAL => 'all';
use Digest::SHA qw(sha256_hex);
use File::Basename qw(dirname);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# Released scripts from test/releases.txt: name => sha256.
my %released;
my $releases = dirname(__FILE__) . '/../releases.txt';
open my $rel, '<', $releases or die "$releases: $!";
while (<$rel>)
{
	next if /^\s*(#|$)/;
	my ($script, $sha) = split;
	$released{$script} = $sha;
}
close $rel;

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
	         || coalesce(E'\n' || CASE WHEN p.prokind = 'a' THEN
	                      format('aggregate %s, combine %s, sort operator %s, parallel %s',
	                             a.aggtransfn, a.aggcombinefn, a.aggsortop::regoperator, p.proparallel)
	                      ELSE pg_get_functiondef(d.objid) END, '')
	         || coalesce(E'\n  comment: ' || obj_description(d.objid, d.classid::regclass::name), '') AS descr
	  FROM pg_depend d
	  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
	  JOIN pg_proc p ON p.oid = d.objid
	  LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
	  WHERE d.deptype = 'e' AND d.classid = 'pg_proc'::regclass
	  UNION ALL
	  SELECT pg_describe_object(d.classid, d.objid, 0)
	         || coalesce((SELECT format(E'\n  %s, commutator %s, restrict %s, join %s',
	                                    o.oprcode, o.oprcom::regoperator, o.oprrest, o.oprjoin)
	                      FROM pg_operator o WHERE d.classid = 'pg_operator'::regclass AND o.oid = d.objid), '')
	         || coalesce(E'\n  comment: ' || obj_description(d.objid, d.classid::regclass::name), '')
	  FROM pg_depend d
	  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuidx'
	  WHERE d.deptype = 'e' AND d.classid <> 'pg_proc'::regclass) s};

# The installed scripts against the list of released ones.
my $extdir = $node->config_data('--sharedir') . '/extension';
my @scripts = map { s{.*/}{}r } glob("$extdir/uuidx--*.sql");
note "installed scripts: @scripts";
ok(exists $released{"uuidx--$oldest.sql"}, "the oldest installed version, $oldest, is a release");
# Every released upgrade script and the oldest release's install script ship
# unchanged; a later release's install script may be left out (each release
# is reached from the oldest by upgrade scripts).
for my $script (sort keys %released)
{
	my $body = -f "$extdir/$script" ? slurp_file("$extdir/$script") : undef;
	if (!defined $body && $script =~ /^uuidx--[0-9.]+\.sql$/ && $script ne "uuidx--$oldest.sql")
	{
		note "released install script $script is no longer installed";
		next;
	}
	ok(defined $body && sha256_hex($body) eq $released{$script},
		"released script $script is installed unchanged (sha256 as in test/releases.txt)");
}
for my $script (@scripts)
{
	# uuidx--V.sql or uuidx--A--V.sql: the version it installs or reaches.
	my ($target) = $script =~ /(?:--)([0-9.]+)\.sql$/;
	next if $target eq $default || exists $released{$script};
	fail("$script reaches $target, not the default $default (under development), but is not in test/releases.txt");
}

$node->safe_psql('postgres', 'CREATE DATABASE walked');
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('walked', "CREATE EXTENSION uuidx VERSION '$oldest'");
# CREATE FUNCTION has looked up every C entry point the oldest script names
# (1.1 renamed most; the library keeps the old names, src/symbols_1_0.c).
is($node->safe_psql('walked', q{SELECT uuid_version(uuid_v1_to_v6(uuid_v6_to_v1(uuid_generate_v6('01:02:03:04:05:06'))))}),
	'6', "the oldest release, $oldest, runs on this library");
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

# ALTER EXTENSION uuidx UPDATE from each older version takes the shortest
# path (from 1.0 and 1.1 the direct uuidx--1.1--1.4.sql): each ends equal to
# a fresh install too.
for my $v (grep { $_ ne $default } @versions)
{
	(my $db = "path_$v") =~ tr/./_/;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, "CREATE EXTENSION uuidx VERSION '$v'; ALTER EXTENSION uuidx UPDATE");
	my $path = $node->safe_psql('postgres',
		"SELECT path FROM pg_extension_update_paths('uuidx') WHERE source = '$v' AND target = '$default'");
	is($node->safe_psql($db, $describe), $fresh, "ALTER EXTENSION uuidx UPDATE from $v ($path) equals a fresh install");
}

# The library serves every older SQL version a database may still be at
# (README, Upgrading): the generator state, and time queries with the
# rows their functions give, from the index from 1.1 (which brought id <@ r
# and the pieces the planner builds with): id <@ r itself, and
# uuid_timestamp(id) on a column declared v7 (the faster time queries come
# with the library, not with an update).
for my $v (grep { $_ ne $default } @versions)
{
	(my $db = "at_$v") =~ tr/./_/;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, qq{
		CREATE EXTENSION uuidx VERSION '$v';
		CREATE TABLE keys (id uuid PRIMARY KEY CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2));
		INSERT INTO keys SELECT uuid_timestamptz_to_v7('2026-11-01+00'::timestamptz + g * interval '10 minutes')
		FROM generate_series(0, 1999) g;
		VACUUM ANALYZE keys;});
	is($node->safe_psql($db, 'SELECT count(*) FROM uuidx_generator_state()'), '3',
		"at SQL $v: uuidx_generator_state() reports the three generators");
	my $defined = q{WITH m AS MATERIALIZED (SELECT uuid_timestamp(id) AS t FROM keys)
		SELECT count(*) FROM m WHERE t >= '2026-11-10' AND t < '2026-11-11'};
	my $time_ranges = $v ne '1.0';
	# Times fixed only when the query runs (timestamptz + interval is
	# stable) may cross: before SQL 1.3.1, which brought
	# uuidx_time_compared(), forms.c guards the window with a one-time
	# lower <= upper (its code for SQL 1.3 and older); crossed, no row,
	# not the key at the lower time that the window [lower, lower] holds.
	my $stable = q{SELECT count(*) FROM keys WHERE uuid_timestamp(id) >= '%s'::timestamptz + interval '0'
		AND uuid_timestamp(id) %s '%s'::timestamptz + interval '0'};
	my @ask = ([ 'uuid_timestamp(id)',
		q{SELECT count(*) FROM keys WHERE uuid_timestamp(id) >= '2026-11-10' AND uuid_timestamp(id) < '2026-11-11'} ],
		[ 'uuid_timestamp(id) between stable times', sprintf($stable, '2026-11-10', '<', '2026-11-11') ]);
	push @ask, [ 'id <@ r', q{SELECT count(*) FROM keys WHERE id <@ tstzrange('2026-11-10', '2026-11-11')} ]
	  if $time_ranges;
	for (@ask)
	{
		my ($form, $query) = @$_;
		is($node->safe_psql($db, $query), $node->safe_psql($db, $defined), "at SQL $v: $form gives the function's rows");
		my $indexed = $node->safe_psql($db, "EXPLAIN (COSTS OFF) $query") =~ /Index/ ? 1 : 0;
		is($indexed, $time_ranges ? 1 : 0, "at SQL $v: $form " . ($time_ranges ? 'from the index' : 'as written'));
	}
	is($node->safe_psql($db, sprintf($stable, '2026-11-11', '<=', '2026-11-10')), '0',
		"at SQL $v: uuid_timestamp(id) between crossed stable times gives no row");
}

# The comparison sees what an incomplete upgrade script would leave behind:
# a definition not brought up to date, or a member not added.
$node->safe_psql('postgres', 'CREATE DATABASE tampered');
$node->safe_psql('tampered', 'CREATE EXTENSION uuidx');
is($node->safe_psql('tampered', $describe), $fresh, 'an untouched install compares equal');
$node->safe_psql('tampered', 'ALTER FUNCTION uuid_version(uuid) VOLATILE');
isnt($node->safe_psql('tampered', $describe), $fresh, 'a function with another volatility compares different');
$node->safe_psql('tampered', 'ALTER FUNCTION uuid_version(uuid) IMMUTABLE');
$node->safe_psql('tampered', 'ALTER EXTENSION uuidx DROP FUNCTION uuid_node(uuid)');
isnt($node->safe_psql('tampered', $describe), $fresh, 'a function missing from the extension compares different');

# A schema with min(uuid) and max(uuid) of its own, dumped and restored:
# pg_dump creates uuidx first, which then has none in the schema and
# creates its own, so the schema's fail, an error each (the README says
# so); after the README's replacement of min by uuidx's, as a member of
# the extension, only max's remains.
my $readme = slurp_file(dirname(__FILE__) . '/../../README.md');
my ($replace) = $readme =~ /```sql\n((?:(?!```).)*?ALTER EXTENSION uuidx ADD AGGREGATE min\(uuid\);\n)```/s
  or die "the README's replacement of a schema's min(uuid) is missing";
$node->safe_psql('postgres', 'CREATE DATABASE own_minmax');
$node->safe_psql('own_minmax', slurp_file(dirname(__FILE__) . '/../../sql/include/own_minmax.sql'));
$node->safe_psql('own_minmax', q{
	SET client_min_messages = error;
	CREATE EXTENSION uuidx;
	CREATE TABLE t (id uuid);
	INSERT INTO t SELECT uuid_generate_v7() FROM generate_series(1, 10);
	CREATE VIEW newest AS SELECT max(id) FROM t});
my $dumpdir = PostgreSQL::Test::Utils::tempdir();
sub dump_and_restore
{
	my ($into) = @_;
	command_ok([ 'pg_dump', '-d', $node->connstr('own_minmax'), '-f', "$dumpdir/$into.sql" ], "pg_dump for $into");
	$node->safe_psql('postgres', "CREATE DATABASE $into");
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'psql', '-X', '-q', '-d', $node->connstr($into), '-f', "$dumpdir/$into.sql" ],
		'>' => \$out, '2>' => \$err);
	return join(',', sort $err =~ /ERROR:  function "(\w+)" already exists/g);
}
is(dump_and_restore('own_restored'), 'max,min', "restored, the schema's own min and max fail: uuidx's were created first");
is($node->safe_psql('own_restored', 'SELECT max = (SELECT id FROM t ORDER BY id DESC LIMIT 1) FROM newest'), 't',
	"and the view answers with uuidx's max, the same");
$node->safe_psql('own_minmax', $replace);
is(dump_and_restore('replaced_restored'), 'max', "after the README's replacement of min, only max's own fails");

# A trusted install runs its scripts as a superuser, with the target
# schema first in the search path.  A database owner who puts look-alike
# operators there (argument types for which pg_catalog has no exact
# operator: oid against a reg* type or an int4, int4[] against int4[])
# must never have one called: the scripts name pg_catalog's.  Every
# version's install script, every upgrade from it, and uuidx_core18's.
$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN;
	CREATE DATABASE mallory_db OWNER mallory;});
my $trap = q{
	CREATE SCHEMA ms;
	CREATE TABLE ms.called (op text);
	CREATE FUNCTION ms.trap(op text) RETURNS void LANGUAGE plpgsql AS $$
	BEGIN
	  INSERT INTO ms.called VALUES (op);
	  BEGIN EXECUTE 'ALTER ROLE mallory SUPERUSER'; EXCEPTION WHEN OTHERS THEN NULL; END;
	END $$;
};
my @lookalikes = (
	[ '=', 'oid', 'regclass', '$1 OPERATOR(pg_catalog.=) $2::oid' ],
	[ '=', 'oid', 'regprocedure', '$1 OPERATOR(pg_catalog.=) $2::oid' ],
	[ '=', 'oid', 'regtype', '$1 OPERATOR(pg_catalog.=) $2::oid' ],
	[ '>=', 'oid', 'int4', '$1 OPERATOR(pg_catalog.>=) $2::oid' ],
	[ '<', 'int4[]', 'int4[]', '$1 OPERATOR(pg_catalog.<) $2' ]);
my $n = 0;
for my $l (@lookalikes)
{
	my ($op, $left, $right, $body) = @$l;
	$n++;
	$trap .= qq{
	CREATE FUNCTION ms.lookalike$n(a $left, b $right) RETURNS bool LANGUAGE plpgsql AS \$\$
	BEGIN PERFORM ms.trap('$op($left, $right)'); RETURN $body; END \$\$;
	CREATE OPERATOR ms.$op (LEFTARG = $left, RIGHTARG = $right, FUNCTION = ms.lookalike$n);};
}
my $mallory = $node->connstr('mallory_db') . ' user=mallory';
my $called = q{SELECT coalesce(string_agg(DISTINCT op, ', '), 'none') || ' / ' ||
	(SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory') FROM ms.called};
# (the trap works: a superuser's comparison of those types, parsed with ms
# first in the search path, calls it)
$node->safe_psql('mallory_db', "SET ROLE mallory; $trap");
$node->safe_psql('mallory_db', q{SET search_path = ms;
	DO $$ BEGIN PERFORM FROM pg_catalog.pg_class c WHERE c.oid = 'pg_catalog.pg_class'::pg_catalog.regclass; END $$});
is($node->safe_psql('mallory_db', $called), '=(oid, regclass) / true',
	'a look-alike operator in the search path is called by an unqualified comparison');
$node->safe_psql('postgres', 'DROP DATABASE mallory_db; ALTER ROLE mallory NOSUPERUSER; CREATE DATABASE mallory_db OWNER mallory');
$node->safe_psql('mallory_db', "SET ROLE mallory; $trap");
# The scripts compare only where the schema holds a name of theirs: from
# 1.4 on a schema's own min(uuid) and max(uuid), from 1.6 on its own
# uuid_version(uuid) and uuid_timestamp(uuid) (TimescaleDB's, say), which
# mallory makes before each install; an update from before 1.4 meets
# uuidx's own min and max.
my $own = q{
	CREATE FUNCTION ms.own_smaller(a uuid, b uuid) RETURNS uuid LANGUAGE sql
	  AS 'SELECT CASE WHEN a OPERATOR(pg_catalog.<) b THEN a ELSE b END';
	CREATE AGGREGATE ms.min(uuid) (SFUNC = ms.own_smaller, STYPE = uuid);
	CREATE AGGREGATE ms.max(uuid) (SFUNC = ms.own_smaller, STYPE = uuid);};
my $own_16 = q{
	CREATE FUNCTION ms.uuid_version(uuid) RETURNS int2 LANGUAGE sql AS 'SELECT 7::int2';
	CREATE FUNCTION ms.uuid_timestamp(uuid) RETURNS timestamptz LANGUAGE sql AS 'SELECT now()';};
my $drop_own = q{
	DROP AGGREGATE IF EXISTS ms.min(uuid); DROP AGGREGATE IF EXISTS ms.max(uuid);
	DROP FUNCTION IF EXISTS ms.own_smaller(uuid, uuid);
	DROP FUNCTION IF EXISTS ms.uuid_version(uuid); DROP FUNCTION IF EXISTS ms.uuid_timestamp(uuid);};
# (@versions is in PostgreSQL's order of versions)
my %version_rank = map { $versions[$_] => $_ } 0 .. $#versions;
my $at_least = sub { $version_rank{ $_[0] } >= $version_rank{ $_[1] } };
my @core18 = split /\n/, $node->safe_psql('postgres', q{
	SELECT version FROM pg_available_extension_versions WHERE name = 'uuidx_core18'});
my @installs;
for my $v (@versions)
{
	my $sql = ($at_least->($v, '1.4') ? $own : '') . ($at_least->($v, '1.6') ? $own_16 : '')
	  . "CREATE EXTENSION uuidx VERSION '$v' SCHEMA ms; ALTER EXTENSION uuidx UPDATE;";
	$sql .= join('', map { "CREATE EXTENSION uuidx_core18 VERSION '$_' SCHEMA ms; DROP EXTENSION uuidx_core18;" } @core18)
	  if $v eq $default;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $mallory,
			'-c', 'SET client_min_messages = error', '-c', $sql, '-c', 'DROP EXTENSION uuidx', '-c', $drop_own ],
		'>' => \$out, '2>' => \$err)
	  or push @installs, "$v: $err";
}
is(join("\n", @installs), '', 'mallory creates every version of uuidx beside names of its own, updates it, and creates '
	  . 'every version of uuidx_core18 (' . join(', ', @core18) . ')');
is($node->safe_psql('mallory_db', $called), 'none / false',
	'no look-alike operator was called, and mallory is no superuser');

$node->stop;
done_testing();
