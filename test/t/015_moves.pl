# Data that moves between servers carries its rows but not the high-water
# mark, and uuidx_generator_advance() is what to run after the move.  For
# each way a move happens (the README's "After a move"):
#
#  1. the function itself: superusers only unless granted; errors for a
#     UUID that holds no generator's time, for infinity, and for a target
#     more than a day ahead of the clock, leaving the generators as they
#     were; every generator past the target afterwards, and after a restart
#     (the mark file);
#  2. pg_dump and pg_restore into a server whose clock is an hour behind;
#  3. a logical-replication subscriber an hour behind that becomes the
#     writer;
#  4. a standby, with the mark in WAL, promoted after the primary advanced;
#  5. pg_upgrade from the previous major (where make test names one with
#     uuidx installed: UUIDX_OLD_PG_CONFIG), without copying uuidx.hwm.
#
# In 2, 3 and 5 the new server first hands out keys below the rows it holds
# (what the function is for), then, after the README's statement, only keys
# above every one of them.
use strict;
use warnings FATAL => 'all';
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FakeClock;

# The README's statement for a whole database (for every column whose
# DEFAULT is one of uuidx's generators, its greatest key of that version),
# taken from the README itself so that what users copy is what runs here.
my $advance_all = do
{
	my $readme = slurp_file(dirname(__FILE__) . '/../../README.md');
	$readme =~ /```sql\n(DO \$\$\n(?:(?!```).)*?uuidx_generator_advance\(k\)(?:(?!```).)*?)```/s
	  or die 'the DO statement calling uuidx_generator_advance(k) is not in README.md';
	$1;
};

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
	return $node;
}

sub start
{
	my ($node, $clock) = @_;
	defined $clock ? FakeClock::run_behind($node, $clock, 'start') : $node->start;
}

# A table of v7 keys, one of v6 and one of v8 keys, with $rows rows each,
# and one whose other uuid column holds name-based v8 values (their time
# field is hash bits, mostly far in the future), which the README's
# statement must pass by.
sub fill
{
	my ($node, $rows) = @_;
	$node->safe_psql('postgres', qq{
		CREATE EXTENSION IF NOT EXISTS uuidx;
		CREATE TABLE items7 (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int);
		CREATE TABLE items6 (id uuid PRIMARY KEY DEFAULT uuid_generate_v6(), n int);
		CREATE TABLE items8 (id uuid PRIMARY KEY DEFAULT uuid_generate_v8(), n int);
		INSERT INTO items7 (n) SELECT g FROM generate_series(1, $rows) g;
		INSERT INTO items6 (n) SELECT g FROM generate_series(1, $rows) g;
		INSERT INTO items8 (n) SELECT g FROM generate_series(1, $rows) g;
		CREATE TABLE named (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), name_key uuid);
		INSERT INTO named (name_key)
		  SELECT uuid_generate_v8_name('6ba7b810-9dad-11d1-80b4-00c04fd430c8', g::text) FROM generate_series(1, $rows) g;
	});
}

# The number of the $rows new rows per table, added with their DEFAULT,
# whose key is not greater than every key the table held before.
sub new_below
{
	my ($node, $rows) = @_;
	return $node->safe_psql('postgres', qq{
		CREATE TEMP TABLE before AS
		  SELECT 'items7' AS t, max(id) AS m FROM items7 UNION ALL
		  SELECT 'items6', max(id) FROM items6 UNION ALL SELECT 'items8', max(id) FROM items8;
		INSERT INTO items7 (n) SELECT -g FROM generate_series(1, $rows) g;
		INSERT INTO items6 (n) SELECT -g FROM generate_series(1, $rows) g;
		INSERT INTO items8 (n) SELECT -g FROM generate_series(1, $rows) g;
		SELECT (SELECT count(*) FROM items7 WHERE n < 0 AND id <= (SELECT m FROM before WHERE t = 'items7'))
		     + (SELECT count(*) FROM items6 WHERE n < 0 AND id <= (SELECT m FROM before WHERE t = 'items6'))
		     + (SELECT count(*) FROM items8 WHERE n < 0 AND id <= (SELECT m FROM before WHERE t = 'items8'));
		DELETE FROM items7 WHERE n < 0; DELETE FROM items6 WHERE n < 0; DELETE FROM items8 WHERE n < 0;
	});
}

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
$node->stop;

# 2. pg_dump and pg_restore into a server an hour behind.
my $src = server('source');
fill($src, 1000);
my $dst = server('restored', '-1h');
my $dump = PostgreSQL::Test::Utils::tempdir() . '/dump';
command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $src->connstr('postgres') ], 'pg_dump');
command_ok([ 'pg_restore', '-d', $dst->connstr('postgres'), $dump ], 'pg_restore into a server an hour behind');
ok(new_below($dst, 100) > 0, 'restored, it hands out keys below the rows it holds');
$dst->safe_psql('postgres', $advance_all);
is(new_below($dst, 100), 0, "after the README's statement, only keys above every one of them");
$dst->stop;

# 3. A logical-replication subscriber an hour behind becomes the writer.
my $pub = $src;
my $sub = server('subscriber', '-1h');
$sub->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE TABLE items7 (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int);
	CREATE TABLE items6 (id uuid PRIMARY KEY DEFAULT uuid_generate_v6(), n int);
	CREATE TABLE items8 (id uuid PRIMARY KEY DEFAULT uuid_generate_v8(), n int);
});
$pub->safe_psql('postgres', 'CREATE PUBLICATION moves FOR TABLE items7, items6, items8');
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
$sub->safe_psql('postgres', $advance_all);
is(new_below($sub, 100), 0, "after the README's statement, only keys above every one of them");
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
	  . ($ENV{UUIDX_OLD_PG_WHY} // 'make test names one (UUIDX_OLD_PG_CONFIG) for 17 and 18'), 3
	  unless $old_config && -x $old_config;
	my $old_bin = `$old_config --bindir`;
	chomp $old_bin;
	my $old_major = (split /\./, (split ' ', `$old_config --version`)[1])[0];
	my $new_major = (split /\./, (split ' ', `pg_config --version`)[1])[0];
	skip "the old install $old_config has no uuidx", 3
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
	skip "the old server ($old_major) marks columns with @refused, which this $new_major does not accept: no pg_upgrade between them", 3
	  if @refused;

	my $cwd = PostgreSQL::Test::Utils::tempdir();
	chdir $cwd;
	command_ok([ 'pg_upgrade', '--no-sync', '-d', $old->data_dir, '-D', $new->data_dir,
		'-b', $old_bin, '-B', $new->config_data('--bindir'),
		'-s', $new->host, '-p', $old->port, '-P', $new->port ],
		"pg_upgrade from $old_major to $new_major, uuidx.hwm left behind");
	$new->start;
	$new->safe_psql('postgres', 'ALTER EXTENSION uuidx UPDATE');
	ok(new_below($new, 100) > 0, 'upgraded, it hands out keys below the rows it holds');
	$new->safe_psql('postgres', $advance_all);
	is(new_below($new, 100), 0, "after the README's statement, only keys above every one of them");
	$new->stop;
}

done_testing();
