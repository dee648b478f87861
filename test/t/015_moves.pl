# Data that moves between servers carries its rows but not the high-water
# mark, and uuidx_generator_advance() is what to run after the move.  For
# each way a move happens (the README's "After a move"):
#
#  1. the functions themselves: superusers only unless granted; errors for
#     a UUID that holds no generator's time, for infinity, and for a target
#     more than a day ahead of the clock, leaving the generators as they
#     were; every generator past the target afterwards, and after a restart
#     (the mark file); uuidx_generator_advance_columns()'s rows: one per
#     column and version, a column it cannot read or pass said in its row
#     while the rest are advanced, a key beyond the bound passed as far as
#     the bound allows;
#  2. pg_dump and pg_restore into a server whose clock is an hour behind;
#  3. a logical-replication subscriber an hour behind that becomes the
#     writer;
#  4. a standby, with the mark in WAL, promoted after the primary advanced;
#  5. pg_upgrade from the previous major (where make test names one with
#     uuidx installed: UUIDX_OLD_PG_CONFIG), without copying uuidx.hwm; and
#     the old server's dump restored into the new major.
#
# uuidx is installed in a schema of its own (ux), and the tables hold keys
# as the README's use cases make them: uuid columns of v6, v7 and v8
# DEFAULTs, ULID and canonical text, a domain's DEFAULT and a domain over
# that domain, a DEFAULT shifted an hour back, a partitioned table, a
# column with one key two days ahead, uuidx_core18's uuidv7() and
# uuidv7(interval) (installed in ux too), and a BEFORE INSERT trigger's
# keys.  In 2, 3 and 5 the new server first hands out keys below the rows
# it holds (what the function is for), then, after the README's one call
# and its one line for the trigger's table, only keys above every one of
# them (within 24 hours of the clock).
use strict;
use warnings FATAL => 'all';
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FakeClock;
use IPC::Run;

# The README's one call for a whole database, taken from the README itself
# so that what users copy is what runs here; its rows, as "table column
# version note" lines, are checked where it runs.
my $advance_all = do
{
	my $readme = slurp_file(dirname(__FILE__) . '/../../README.md');
	$readme =~ /```sql\n(SELECT [^`]*uuidx_generator_advance_columns\(\)[^`]*?)```/s
	  or die 'the call of uuidx_generator_advance_columns() is not in README.md';
	$1;
};

# The README's one line for a column filled by a trigger or the
# application, for table t, also from the README.
my $advance_one = do
{
	my $readme = slurp_file(dirname(__FILE__) . '/../../README.md');
	$readme =~ /`(SELECT\s+uuidx_generator_advance\(max\(id\)\) FROM t WHERE uuid_version\(id\) = 7)`/
	  or die 'the one line for a column filled by a trigger is not in README.md';
	$1 =~ s/\s+/ /gr;
};

# Runs the README's call, and its one line for trig, whose keys a trigger
# makes, and returns the notes of columns not fully advanced, as
# "table.column: note" lines (far, whose key two days ahead is beyond the
# bound, is always one).
sub advance_all
{
	my ($node) = @_;
	$node->safe_psql('postgres', $advance_one =~ s/ FROM t / FROM trig /r);
	my $rows = $node->safe_psql('postgres', "CREATE TEMP TABLE r AS $advance_all;"
		  . q{SELECT string_agg(table_name || '.' || column_name || ': ' || coalesce(note, 'advanced to ' || advanced_to), E'\n'
		                        ORDER BY table_name::text, column_name)
		        FROM r WHERE note IS NOT NULL OR advanced_to IS NULL});
	return $rows;
}

# A server with uuidx preloaded and its mark in WAL; $clock an offset
# ("-1h") it runs at, or undef for the real clock.
sub server
{
	my ($name, $clock) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(allows_streaming => 'logical');
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uuidx'
uuidx.wal_log_mark = on
max_wal_senders = 10
max_replication_slots = 10
});
	start($node, $clock);
	# (mover: a role that a dump's GRANT names, as pg_dumpall's globals bring it)
	$node->safe_psql('postgres', 'ALTER DATABASE postgres SET search_path = public, ux; CREATE ROLE mover');
	return $node;
}

sub start
{
	my ($node, $clock) = @_;
	defined $clock ? FakeClock::run_behind($node, $clock, 'start') : $node->start;
}

# The tables (name => the key as a uuid), each of $rows rows, and one
# whose other uuid column holds name-based v8 values (their time field is
# hash bits, mostly far in the future), which the call must pass by.
my @shapes = (
	[ items7 => 'id' ], [ items6 => 'id' ], [ items8 => 'id' ],
	[ ulids => 'ulid_to_uuid(id)' ], [ texts => 'id::uuid' ],
	[ dom => 'id' ], [ dom2 => 'id' ], [ shifted => 'id' ], [ parted => 'id' ], [ far => 'id' ],
	[ core18 => 'id' ], [ core18s => 'id' ], [ trig => 'id' ]);

sub fill
{
	my ($node, $rows) = @_;
	$node->safe_psql('postgres', qq{
		CREATE SCHEMA IF NOT EXISTS ux;
		GRANT USAGE ON SCHEMA ux TO PUBLIC;
		CREATE EXTENSION IF NOT EXISTS uuidx SCHEMA ux;
		CREATE EXTENSION IF NOT EXISTS uuidx_core18 SCHEMA ux;
		SET search_path = public, ux;
		CREATE TABLE items7 (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int);
		CREATE TABLE items6 (id uuid PRIMARY KEY DEFAULT uuid_generate_v6(), n int);
		CREATE TABLE items8 (id uuid PRIMARY KEY DEFAULT uuid_generate_v8(), n int);
		CREATE TABLE ulids (id text PRIMARY KEY DEFAULT uuid_to_ulid(uuid_generate_v7()), n int);
		CREATE TABLE texts (id text PRIMARY KEY DEFAULT uuid_generate_v7()::text, n int);
		CREATE DOMAIN uid AS uuid DEFAULT uuid_generate_v7();
		CREATE DOMAIN uid_over AS uid;
		CREATE TABLE dom (id uid PRIMARY KEY, n int);
		CREATE TABLE dom2 (id uid_over PRIMARY KEY, n int);
		CREATE TABLE shifted (id uuid PRIMARY KEY DEFAULT uuid_generate_v7('-1 hour'), n int);
		CREATE TABLE parted (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int) PARTITION BY HASH (id);
		CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
		CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
		-- uuidx_core18's names, qualified (on 18 an unqualified call reaches core's)
		CREATE TABLE core18 (id uuid PRIMARY KEY DEFAULT ux.uuidv7(), n int);
		CREATE TABLE core18s (id uuid PRIMARY KEY DEFAULT ux.uuidv7('-1 hour'), n int);
		CREATE TABLE far (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int);
		-- keys from a trigger, which the call does not find (the README's one line)
		CREATE TABLE trig (id uuid PRIMARY KEY, n int);
		CREATE FUNCTION trig_key() RETURNS trigger LANGUAGE plpgsql
		  AS 'BEGIN NEW.id := ux.uuid_generate_v7(); RETURN NEW; END';
		CREATE TRIGGER trig_key BEFORE INSERT ON trig FOR EACH ROW EXECUTE FUNCTION trig_key();
		INSERT INTO far VALUES (uuid_timestamptz_to_v7(now() + interval '2 days'), 0);
		CREATE TABLE named (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), name_key uuid);
		INSERT INTO named (name_key)
		  SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', g::text) FROM generate_series(1, $rows) g;
	} . join('', map { "INSERT INTO $_->[0] (n) SELECT g FROM generate_series(1, $rows) g;\n" } @shapes));
}

# The number of the $rows new rows per table, added with their DEFAULT,
# whose key is not greater than every key the table held before (far: every
# key within a day of the clock).
sub new_below
{
	my ($node, $rows) = @_;
	my $sql = 'CREATE TEMP TABLE before (t text, m uuid);';
	for (@shapes)
	{
		my ($t, $k) = @$_;
		$sql .= qq{INSERT INTO before SELECT '$t', max(k) FROM (SELECT $k AS k FROM $t) s
		             WHERE uuid_timestamp(k) IS NULL OR uuid_timestamp(k) < now() + interval '1 day';
		           INSERT INTO $t (n) SELECT -g FROM generate_series(1, $rows) g;};
	}
	$sql .= 'SELECT ' . join(' + ', map {
		"(SELECT count(*) FROM $_->[0] WHERE n < 0 AND $_->[1] <= (SELECT m FROM before WHERE t = '$_->[0]'))"
	} @shapes) . ';';
	$sql .= join('', map { "DELETE FROM $_->[0] WHERE n < 0;" } @shapes);
	return $node->safe_psql('postgres', $sql);
}

# What the call says of the tables after a move: far's key beyond the bound.
my $far_only = qr/\Afar\.id: its key \S+ of .* is more than 24 hours ahead of the clock: passed its greatest key within that bound\z/;

# 1. The function.
my $node = server('origin');
fill($node, 100);
$node->safe_psql('postgres', 'CREATE ROLE app LOGIN');
my ($rc, $out, $err) = $node->psql('postgres', 'SET ROLE app; SELECT uuidx_generator_advance(now())');
like($err, qr/permission denied for function uuidx_generator_advance/, 'a role without the grant may not advance');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION uuidx_generator_advance(timestamptz) TO app');
($rc, $out, $err) = $node->psql('postgres', 'SET ROLE app; SELECT uuidx_generator_advance(now() - interval \'1 day\') <= now()');
is($out, 't', 'granted, it may; a time in the past moves nothing');

my $state = q{SELECT string_agg(generator || '=' || last_time, ' ' ORDER BY generator) FROM uuidx_generator_state()};
my $before = $node->safe_psql('postgres', $state);
for my $bad (
	[ q{'8d9e1f62-5b0b-4c6f-9a3e-2f1d0c7b6a59'::uuid}, '22023', qr/cannot advance the generators past UUID 8d9e1f62-5b0b-4c6f-9a3e-2f1d0c7b6a59.*version 4 UUID/s ],
	[ q{'01a20320-a200-7000-0000-000000000000'::uuid}, '22023', qr/not of the RFC 9562 variant/ ],
	[ q{'infinity'::timestamptz}, '22008', qr/cannot advance the generators to infinity/ ],
	[ q{now() + interval '25 hours'}, '22023', qr/more than 24 hours ahead of the clock/ ],
	[ q{uuid_timestamptz_to_v7(now() + interval '25 hours')}, '22023', qr/more than 24 hours ahead of the clock/ ])
{
	($rc, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nSELECT uuidx_generator_advance($bad->[0])");
	like($err, qr/ERROR:  $bad->[1]:/, "$bad->[0] is refused with $bad->[1]");
	like($err, $bad->[2], "$bad->[0]: the message says why");
}
is($node->safe_psql('postgres', $state), $before, 'a refusal leaves the generators as they were');

my $target = $node->safe_psql('postgres', q{SELECT now() + interval '1 hour'});
is($node->safe_psql('postgres', "SELECT uuidx_generator_advance('$target'::timestamptz) >= '$target'"), 't',
	'it returns a time at or after the target');
my $after = q{SELECT bool_and(t > %s) FROM (VALUES (uuid_timestamp(uuid_generate_v7())), (uuid_timestamp(uuid_generate_v6())),
                                          (uuid_v7_to_timestamptz(overlay(uuid_generate_v8()::text PLACING '7' FROM 15 FOR 1)::uuid))) v(t)};
is($node->safe_psql('postgres', sprintf($after, "'$target'")), 't', 'every generator is past the target');
$node->safe_psql('postgres', 'CREATE DATABASE other');
is($node->safe_psql('other', "CREATE EXTENSION uuidx; SELECT uuid_v7_to_timestamptz(uuid_generate_v7()) > '$target'"), 't',
	'the move is the whole server\'s: another database hands out keys past the target too');
$node->restart;
is($node->safe_psql('postgres', sprintf($after, "'$target'")), 't', 'and still is after a restart');

# A key as the target: its own generator passes the key itself.
my $key = $node->safe_psql('postgres', q{SELECT uuid_timestamptz_to_v7(now() + interval '2 hours')});
$node->safe_psql('postgres', "SELECT uuidx_generator_advance('$key'::uuid)");
is($node->safe_psql('postgres', "SELECT uuid_generate_v7() > '$key'::uuid"), 't', 'v7 passes a v7 key');
# The greatest v6 key of a time, and the greatest v8 of uuidx's layout of a
# millisecond: the key's own generator passes it, the others its time.
my ($t6, $key6) = split /\|/, $node->safe_psql('postgres',
	q{SELECT t, uuidx_time_bound(tstzrange(t, t, '[]'), 6, true) FROM (SELECT now() + interval '3 hours' AS t) s});
$node->safe_psql('postgres', "SELECT uuidx_generator_advance('$key6'::uuid)");
is($node->safe_psql('postgres', "SELECT uuid_version('$key6'::uuid) = 6 AND uuid_generate_v6() > '$key6'::uuid"), 't',
	'v6 passes a v6 key');
is($node->safe_psql('postgres', sprintf($after, "'$t6'")), 't', 'and every generator is past its time');
my ($t8, $key8) = split /\|/, $node->safe_psql('postgres',
	q{SELECT t, overlay(uuid_v7_upper_bound(t)::text PLACING '8' FROM 15 FOR 1) FROM (SELECT now() + interval '4 hours' AS t) s});
$node->safe_psql('postgres', "SELECT uuidx_generator_advance('$key8'::uuid)");
is($node->safe_psql('postgres', "SELECT uuid_version('$key8'::uuid) = 8 AND uuid_generate_v8() > '$key8'::uuid"), 't',
	'v8 passes a v8 key');
is($node->safe_psql('postgres', sprintf($after, "'$t8'")), 't', 'and every generator is past its time');

# uuidx_generator_advance_columns(): one row per column and version, in
# every schema; what cannot be read or passed is said in its row, and the
# columns after it are advanced all the same (bad comes first).  Keys 6 and
# 7 hours ahead (the generators stand 4 hours ahead by now), the latter in
# the column shifted an hour back.
$node->safe_psql('postgres', q{
	CREATE TABLE bad (id text DEFAULT uuid_generate_v7()::text);
	INSERT INTO bad VALUES ('not a uuid');
	CREATE TABLE computed (id uuid DEFAULT uuid_generate_v7(make_interval(secs => 1)));
	INSERT INTO computed DEFAULT VALUES;
	CREATE TABLE empty6 (id uuid DEFAULT uuid_generate_v6());
	CREATE SCHEMA hidden;
	CREATE TABLE hidden.keys (id uuid DEFAULT uuid_generate_v8());
	INSERT INTO hidden.keys DEFAULT VALUES;
	INSERT INTO items7 VALUES (uuid_timestamptz_to_v7(now() + interval '6 hours'), 0);
	INSERT INTO shifted VALUES (uuid_timestamptz_to_v7(now() + interval '7 hours'), 0);
	CREATE TABLE typmod (id uuid DEFAULT uuid_generate_v7('-1 hour'::interval hour));
	INSERT INTO typmod VALUES (uuid_timestamptz_to_v7(now() + interval '7 hours'));
	CREATE TABLE parent (id uuid DEFAULT uuid_generate_v7());
	CREATE TABLE child () INHERITS (parent);
	ALTER TABLE child ALTER COLUMN id SET DEFAULT uuid_generate_v7('-3 hours');
	INSERT INTO child VALUES (uuid_timestamptz_to_v7(now() + interval '5 hours'));
	CREATE TABLE hiding (id uuid DEFAULT uuid_generate_v7(), owner name);
	INSERT INTO hiding VALUES (uuid_timestamptz_to_v7(now() + interval '1 hour'), 'someone');
	ALTER TABLE hiding ENABLE ROW LEVEL SECURITY;
	CREATE POLICY own ON hiding USING (owner = current_user);
	GRANT SELECT ON hiding TO app;
	CREATE TABLE under (id uuid, n int);
	CREATE VIEW over AS SELECT * FROM under;
	ALTER VIEW over ALTER COLUMN id SET DEFAULT uuid_generate_v7();
	INSERT INTO under VALUES (uuid_timestamptz_to_v7(now() + interval '8 hours'), 0);
	CREATE TABLE daily (id uuid DEFAULT uuid_generate_v7('-1 day'));
	INSERT INTO daily DEFAULT VALUES;
	CREATE FUNCTION my_key() RETURNS uuid LANGUAGE sql AS 'SELECT uuid_generate_v7()';
	CREATE TABLE wrapped (id uuid DEFAULT my_key());
});
($rc, $out, $err) = $node->psql('postgres', 'SET ROLE app; SELECT count(*) FROM uuidx_generator_advance_columns()');
like($err, qr/permission denied for function uuidx_generator_advance_columns/, 'a role without the grant may not advance the columns');
my $rows = $node->safe_psql('postgres', q{
	SELECT table_name || ' ' || column_name || ' ' || version || ' ' || coalesce(shift::text, '-') || ' ' || coalesce(note, 'advanced to ' || advanced_to)
	  FROM uuidx_generator_advance_columns()});
my %row = map { my ($t, $c, $v, @rest) = split / /; ("$t $c $v" => join(' ', @rest)) } split /\n/, $rows;
is(join(',', sort keys %row),
	join(',', sort map { "$_ id " . ($_ eq 'items6' || $_ eq 'empty6' ? 6 : $_ =~ /items8|hidden/ ? 8 : 7) }
		qw(bad computed core18 core18s daily dom dom2 empty6 far hidden.keys hiding items6 items7 items8 named over parent parted shifted texts typmod ulids)),
	'one row per column whose DEFAULT or domain calls a generator, in every schema; a partitioned table, not its partitions; '
	  . 'a parent, not its child; a view; not a function of its own that calls one');
like($row{'bad id 7'}, qr/^00:00:00 not advanced: invalid input syntax for type uuid: "not a uuid" \(SQLSTATE 22P02\)$/,
	'a key it cannot read: said, with the error');
like($row{'computed id 7'}, qr/not advanced: its DEFAULT shifts uuid_generate_v7\(\) by an interval that is not a constant/,
	'a shift that is not a constant: said');
like($row{'empty6 id 6'}, qr/no key of version 6/, 'a column without keys: said');
like($row{'shifted id 7'}, qr/^-01:00:00 advanced to /, "a shifted DEFAULT's shift");
like($row{'typmod id 7'}, qr/^-01:00:00 advanced to /, "a shift with a type modifier");
like($row{'core18s id 7'}, qr/^-01:00:00 advanced to /, "uuidx_core18's uuidv7(interval): its shift");
like($row{'parent id 7'}, qr/^-03:00:00 advanced to /, "a parent's row takes its child's own shift");
like($row{'far id 7'}, qr/more than 24 hours ahead of the clock: passed its greatest key within that bound$/,
	'a key beyond the bound: said');
like($row{'daily id 7'}, qr/^-1 days its shift -1 days has days or months, which each session adds in its own TimeZone: passed for sessions in \S+$/,
	'a shift of days: said');
for my $row (grep { !/^(bad|computed|empty6|far|hiding|daily) / } keys %row)
{
	like($row{$row}, qr/^\S+ advanced to /, "$row: advanced");
}
is($node->safe_psql('postgres', q{
	SELECT uuid_generate_v7() > (SELECT max(id) FROM items7)
	   AND uuid_generate_v7('-1 hour') > (SELECT max(id) FROM shifted)
	   AND uuid_generate_v7() > (SELECT max(id) FROM far WHERE uuid_timestamp(id) < now() + interval '1 day')
	   AND uuid_generate_v8() > (SELECT max(id) FROM hidden.keys)
	   AND uuid_generate_v7('-1 hour') > (SELECT max(id) FROM typmod)
	   AND uuid_generate_v7('-3 hours') > (SELECT max(id) FROM ONLY child)
	   AND uuid_generate_v7() > (SELECT max(id) FROM under)}), 't',
	'the columns after one it could not read are passed: a key 6 hours ahead, one 7 hours ahead in a column shifted an hour back, a child\'s own shift, a view\'s');
is($node->safe_psql('postgres', q{
	BEGIN;
	SELECT count(*) > 0 FROM uuidx_generator_advance_columns();
	SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'relation'
	   AND relation IN ('items7'::regclass, 'items7_pkey'::regclass, 'parted_0'::regclass);
	COMMIT}), "t\n0", 'the call holds no lock on the tables it has read');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION uuidx_generator_advance_columns() TO app');
like($node->safe_psql('postgres', q{SET ROLE app; SELECT note FROM uuidx_generator_advance_columns() WHERE table_name = 'items7'::regclass}),
	qr/not advanced: permission denied for table items7/, 'granted, a role that cannot read a table gets it said');
like($node->safe_psql('postgres', q{SET ROLE app; SELECT note FROM uuidx_generator_advance_columns() WHERE table_name = 'hiding'::regclass}),
	qr/not advanced: query would be affected by row-level security policy for table "hiding"/,
	'a table whose policy would hide keys from the caller: said, not passed short');
$node->safe_psql('postgres', 'DROP VIEW over; DROP TABLE bad, computed, empty6, typmod, child, parent, hiding, under, daily, wrapped; DROP SCHEMA hidden CASCADE');
$node->stop;

# 2. pg_dump and pg_restore into a server an hour behind.
my $src = server('source');
fill($src, 1000);
# a role granted the move, which the dump carries
$src->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION ux.uuidx_generator_advance(uuid) TO mover');
my $dst = server('restored', '-1h');
my $dump = PostgreSQL::Test::Utils::tempdir() . '/dump';
command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $src->connstr('postgres') ], 'pg_dump');
command_ok([ 'pg_restore', '-d', $dst->connstr('postgres'), $dump ], 'pg_restore into a server an hour behind');
ok(new_below($dst, 100) > 0, 'restored, it hands out keys below the rows it holds');
like(advance_all($dst), $far_only, 'the call advanced past every column, and said why not past far\'s key two days ahead');
is(new_below($dst, 100), 0, "after the README's call, only keys above every one of them");

# A database owner restores the dump: the trusted extension installs, the
# rows come, the GRANT is the one statement refused; the owner cannot
# advance, a superuser does.
$dst->safe_psql('postgres', 'CREATE ROLE owner LOGIN; CREATE DATABASE owned OWNER owner');
my $restore = IPC::Run::run([ 'pg_restore', '--no-owner', '-U', 'owner', '-d', $dst->connstr('owned'), $dump ],
	'>', \$out, '2>', \$err);
ok(!$restore && $err =~ /permission denied for function uuidx_generator_advance/ && $err =~ /errors ignored on restore: 1\b/,
	"a database owner's restore: the GRANT alone is refused") or diag($err);
is($dst->safe_psql('owned', 'SELECT count(*) FROM items7'), '1000', 'and the rows are there');
($rc, $out, $err) = $dst->psql('owned', 'SELECT * FROM ux.uuidx_generator_advance_columns()', extra_params => [ '-U', 'owner' ]);
like($err, qr/permission denied for function uuidx_generator_advance_columns/, 'the owner may not advance');
($rc, $out, $err) = $dst->psql('owned', 'GRANT EXECUTE ON FUNCTION ux.uuidx_generator_advance_columns() TO owner',
	extra_params => [ '-U', 'owner' ]);
isnt($rc, 0, 'nor grant it to itself');
$dst->safe_psql('postgres', 'CREATE DATABASE owned_x OWNER owner');
command_ok([ 'pg_restore', '--no-owner', '-x', '-U', 'owner', '-d', $dst->connstr('owned_x'), $dump ],
	"with -x, the owner's restore has no error");
$dst->stop;

# 3. A logical-replication subscriber an hour behind becomes the writer.
my $pub = $src;
my $sub = server('subscriber', '-1h');
# the subscriber's tables, as a subscriber gets them: the publisher's schema
my $schema = PostgreSQL::Test::Utils::tempdir() . '/schema.sql';
command_ok([ 'pg_dump', '--schema-only', '-f', $schema, '-d', $pub->connstr('postgres') ], 'pg_dump --schema-only');
$sub->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $schema, '-d', $sub->connstr('postgres') ],
	"the publisher's schema on the subscriber");
$pub->safe_psql('postgres', 'CREATE PUBLICATION moves FOR ALL TABLES');
$sub->safe_psql('postgres', "CREATE SUBSCRIPTION moves CONNECTION '" . $pub->connstr . " dbname=postgres' PUBLICATION moves");
$sub->wait_for_subscription_sync($pub, 'moves');
$pub->safe_psql('postgres', 'INSERT INTO items7 (n) SELECT g FROM generate_series(1, 1000) g');
$pub->wait_for_catchup('moves');
is($sub->safe_psql('postgres', 'SELECT count(*) FROM items7'), '2000', 'the subscriber has the rows');
# the switchover: the publisher stops writing, the subscription goes
$pub->stop;
$sub->safe_psql('postgres', 'ALTER SUBSCRIPTION moves DISABLE');
$sub->safe_psql('postgres', 'ALTER SUBSCRIPTION moves SET (slot_name = NONE)');
$sub->safe_psql('postgres', 'DROP SUBSCRIPTION moves');
ok(new_below($sub, 100) > 0, 'the new writer hands out keys below the rows it holds');
like(advance_all($sub), $far_only, 'the call advanced past every column, and said why not past far\'s key two days ahead');
is(new_below($sub, 100), 0, "after the README's call, only keys above every one of them");
$sub->stop;

# 4. A standby, with the mark in WAL: promoted after the primary advanced,
# its clock an hour behind.
my $primary = server('primary');
fill($primary, 10);
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
FakeClock::run_behind($standby, '-1h', 'start');
$target = $primary->safe_psql('postgres', q{SELECT uuidx_generator_advance(now() + interval '30 minutes')});
$primary->wait_for_catchup($standby);
$primary->stop;
$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()') or die 'not promoted';
is($standby->safe_psql('postgres', sprintf($after, "'$target'")), 't',
	'a standby promoted after the primary advanced is past its target');
$standby->stop;

# 5. pg_upgrade from the previous major, without uuidx.hwm: the old server
# ran an hour ahead.
SKIP:
{
	my $old_config = $ENV{UUIDX_OLD_PG_CONFIG};
	skip 'no previous major to upgrade from: '
	  . ($ENV{UUIDX_OLD_PG_WHY} // 'make test names one (UUIDX_OLD_PG_CONFIG) where an older major is installed'), 10
	  unless $old_config && -x $old_config;
	my $old_bin = `$old_config --bindir`;
	chomp $old_bin;
	# (the major of "PostgreSQL 17.11" or of "PostgreSQL 19rc1")
	my ($old_major) = `$old_config --version` =~ /^PostgreSQL (\d+)/;
	my ($new_major) = `pg_config --version` =~ /^PostgreSQL (\d+)/;
	skip "the old install $old_config has no uuidx", 10
	  unless -f (`$old_config --pkglibdir` =~ s/\s+$//r) . '/uuidx.so';
	# initdb enables data checksums from 18 on: the old cluster must match.
	my @checksums = $new_major >= 18 && $old_major < 18 ? (extra => ['--data-checksums']) : ();
	# (no streaming settings: this version's Cluster.pm writes some the old
	# major does not know)
	my $old = PostgreSQL::Test::Cluster->new('old', install_path => dirname($old_bin));
	$old->init(@checksums);
	$old->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
	start($old, '+1h');
	fill($old, 1000);
	# PostgreSQL 19's casts between uuid and bytea, used where uuidx's serve
	# (the old major): a view, and a function whose body is stored parsed
	$old->safe_psql('postgres', q{
		CREATE VIEW key_bytes AS SELECT id, id::bytea AS b, id::bytea::uuid AS back FROM public.items7;
		CREATE FUNCTION key_of(b bytea) RETURNS uuid LANGUAGE sql IMMUTABLE RETURN b::uuid;});
	# a dump of it too, restored into the new major below: the DEFAULTs
	# name uuidx_core18's functions schema-qualified (ux.uuidv7()), which
	# the new major must have, even where its pg_catalog has uuidv7()
	my $dump = PostgreSQL::Test::Utils::tempdir() . '/old.sql';
	command_ok([ 'pg_dump', '-d', $old->connstr('postgres'), '-f', $dump ], "pg_dump of the $old_major server");
	$old->stop;
	my $new = PostgreSQL::Test::Cluster->new('new');
	$new->init;
	$new->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");

	# A minor release may mark columns with an option a newer major's older
	# minor release does not know yet (15.20 marks every column pg_attver,
	# which 17.11 rejects; make test upgrades from a pinned 15.18): then no
	# pg_upgrade can carry the columns, uuidx or not.
	$old->start;
	my @options = split /\n/, $old->safe_psql('postgres', q{
		SELECT DISTINCT split_part(o, '=', 1) FROM pg_attribute, unnest(attoptions) o
		WHERE attrelid = 'items7'::regclass});
	$old->stop;
	$new->start;
	my @refused = grep {
		$new->psql('postgres', "CREATE TEMP TABLE probe (c int); ALTER TABLE probe ALTER COLUMN c SET ($_ = 1)") != 0
	} @options;
	$new->stop;
	skip "the old server ($old_major) marks columns with @refused, which this $new_major does not accept: no pg_upgrade between them", 9
	  if @refused;

	my $cwd = PostgreSQL::Test::Utils::tempdir();
	chdir $cwd;
	command_ok([ 'pg_upgrade', '--no-sync', '-d', $old->data_dir, '-D', $new->data_dir,
		'-b', $old_bin, '-B', $new->config_data('--bindir'),
		'-s', $new->host, '-p', $old->port, '-P', $new->port ],
		"pg_upgrade from $old_major to $new_major, uuidx.hwm left behind");
	$new->start;
	$new->safe_psql('postgres', 'ALTER EXTENSION uuidx UPDATE; ALTER EXTENSION uuidx_core18 UPDATE; ALTER DATABASE postgres SET search_path = public, ux');
	# the DEFAULTs of core18 and core18s, deparsed schema-qualified
	my $defaults = q{
		SET search_path = '';
		SELECT string_agg(pg_get_expr(adbin, adrelid), ', ' ORDER BY adrelid::regclass::text)
		  FROM pg_catalog.pg_attrdef WHERE adrelid IN ('public.core18'::regclass, 'public.core18s'::regclass)};
	$new->safe_psql('postgres', 'CREATE DATABASE restored');
	command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $new->connstr('restored'), '-f', $dump ],
		"the $old_major dump restores into $new_major");
	is($new->safe_psql('restored', q{
		SET search_path = public, ux;
		INSERT INTO core18 (n) VALUES (0), (0);
		INSERT INTO core18s (n) VALUES (0);
		SELECT count(*) FILTER (WHERE uuid_version(id) = 7), count(*) FROM core18 WHERE n = 0 UNION ALL
		SELECT count(*) FILTER (WHERE uuid_version(id) = 7), count(*) FROM core18s WHERE n = 0;} . $defaults),
		"2|2\n1|1\nux.uuidv7(), ux.uuidv7('-01:00:00'::interval)",
		"restored, the DEFAULTs call uuidx_core18's uuidv7() and uuidv7(interval)");
	is($new->safe_psql('postgres', $defaults),
		"ux.uuidv7(), ux.uuidv7('-01:00:00'::interval)",
		"upgraded, the DEFAULTs still call uuidx_core18's");
	# the casts: from 19 on core's, none of them uuidx's (the binary
	# upgrade's CREATE CAST and ALTER EXTENSION ADD CAST left out)
	my $casts = q{
		SELECT string_agg(format('%s->%s %s', castsource::regtype, casttarget::regtype,
		                         CASE WHEN c.oid < 16384 THEN 'core'
		                              WHEN EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		                                            WHERE d.classid = 'pg_cast'::regclass AND d.objid = c.oid
		                                              AND e.extname = 'uuidx') THEN 'uuidx' END),
		                  ', ' ORDER BY castsource::regtype::text)
		  FROM pg_cast c
		 WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype));
		SELECT count(*) FILTER (WHERE b = uuid_send(id) AND back = id AND key_of(b) = id) = count(*) FROM key_bytes;};
	my $owner = $new_major >= 19 ? 'core' : 'uuidx';
	for my $db ('postgres', 'restored')
	{
		is($new->safe_psql($db, $casts), "bytea->uuid $owner, uuid->bytea $owner\nt",
			"$db: the casts between uuid and bytea are ${owner}'s, and the view and function that use them read every key");
	}
	ok(new_below($new, 100) > 0, 'upgraded, it hands out keys below the rows it holds');
	like(advance_all($new), $far_only, 'the call advanced past every column, and said why not past far\'s key two days ahead');
	is(new_below($new, 100), 0, "after the README's call, only keys above every one of them");
	$new->stop;
}

done_testing();
