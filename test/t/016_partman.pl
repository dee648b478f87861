# pg_partman with uuidx's functions as its time encoder and decoder, on a
# table partitioned by range of a v7 key (docs/partman.md, "Partitions with
# pg_partman"): create_parent makes the partitions ahead, rows with
# DEFAULT uuid_generate_v7() land in them and never in the default
# partition, run_maintenance makes new partitions as time goes on (the
# server's clock moved by libfaketime) and drops those past the retention,
# and a time window, as uuid_timestamp(id) or id <@ r, scans only the
# partitions that can hold it, the default partition excluded on a key
# declared v7.
#
# pg_partman runs some of its functions with its own search_path: the
# encoder and decoder are named with their schema.
#
# A key dated past the premade partitions: check_default() finds it,
# maintenance fails (5.2) or skips the table (5.5) when its partition falls
# due, and docs/partman.md's repair for each moves it to its day's partition.
#
# Needs pg_partman 5 (which takes a time encoder and decoder) in this
# PostgreSQL: the Debian roots of make matrix install Debian's
# postgresql-17-partman (5.2) and postgresql-18-partman (5.5).  Debian's
# package for 15 is pg_partman 4.7, which has neither, and Debian has none
# for 19 yet: skipped.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Basename qw(dirname);
use FakeClock;

my $node = PostgreSQL::Test::Cluster->new('partman');
my $control = $node->config_data('--sharedir') . '/extension/pg_partman.control';
plan skip_all => "pg_partman 5 is not installed in PostgreSQL " . $node->pg_version->major
  . ' (Debian packages pg_partman 4.7.2 for 15, whose create_parent takes no time encoder for uuid columns)'
  if !-f $control && $node->pg_version < 17;
plan skip_all => "pg_partman is not installed in this PostgreSQL ($control)" unless -f $control;
my ($partman_version) = slurp_file($control) =~ /default_version\s*=\s*'([^']+)'/;
plan skip_all => "pg_partman $partman_version has no time encoder for uuid columns (5.0 and later do)"
  if $partman_version !~ /^([5-9]|\d\d)\./;

$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'\ntimezone = 'UTC'");
my $clock = FakeClock->new($node);
$clock->run($node, 'start');

$node->safe_psql('postgres', q{
	CREATE SCHEMA partman;
	CREATE EXTENSION pg_partman SCHEMA partman;
	CREATE EXTENSION uuidx;
	CREATE TABLE events (
	  id uuid NOT NULL DEFAULT uuid_generate_v7() CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2),
	  payload int,
	  PRIMARY KEY (id)
	) PARTITION BY RANGE (id);
});
$node->safe_psql('postgres', q{
	SELECT partman.create_parent(p_parent_table := 'public.events', p_control := 'id',
	  p_interval := '1 day', p_premake := 3,
	  p_time_encoder := 'public.uuid_v7_lower_bound', p_time_decoder := 'public.uuid_timestamp');
});

# The partitions and the days they hold, by pg_partman's own decoding
# (5.2.4 finds the decoder only when told the parent table).
my $days = q{
	SELECT string_agg(to_char(child_start_time, 'MM-DD'), ' ' ORDER BY child_start_time)
	FROM partman.show_partitions('public.events') p,
	     partman.show_partition_info(p.partition_schemaname || '.' || p.partition_tablename, p_parent_table := 'public.events') i
};
my $today = $node->safe_psql('postgres', q{SELECT to_char(now(), 'MM-DD')});
my @made = split ' ', $node->safe_psql('postgres', $days);
is(scalar(@made), 7, 'create_parent makes a week of daily partitions around today');
ok(grep({ $_ eq $today } @made), "today ($today) is among them");
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relname = 'events_default'}), '1',
	'and a default partition');

$node->safe_psql('postgres', 'INSERT INTO events (payload) SELECT g FROM generate_series(1, 1000) g');
is($node->safe_psql('postgres', 'SELECT count(*) FROM events_default'), '0',
	'rows with DEFAULT uuid_generate_v7() never land in the default partition');

# Three days later: run_maintenance makes partitions ahead again.
$clock->set('+3d');
$node->safe_psql('postgres', 'INSERT INTO events (payload) SELECT g FROM generate_series(1, 1000) g');
$node->safe_psql('postgres', q{CALL partman.run_maintenance_proc()});
my $later = $node->safe_psql('postgres', q{SELECT to_char(now() + interval '3 days', 'MM-DD')});
my @after = split ' ', $node->safe_psql('postgres', $days);
ok(grep({ $_ eq $later } @after), "run_maintenance makes the partition of $later, three days ahead of the clock");
is($node->safe_psql('postgres', 'SELECT count(*) FROM events_default'), '0', 'the default partition is still empty');

# Retention: partitions older than two days go.
$node->safe_psql('postgres', q{
	UPDATE partman.part_config SET retention = '2 days', retention_keep_table = false
	WHERE parent_table = 'public.events';
	CALL partman.run_maintenance_proc();
});
my $oldest = $node->safe_psql('postgres', q{
	SELECT min(child_start_time) >= date_trunc('day', now()) - interval '3 days'
	FROM partman.show_partitions('public.events') p,
	     partman.show_partition_info(p.partition_schemaname || '.' || p.partition_tablename, p_parent_table := 'public.events') i});
is($oldest, 't', 'run_maintenance drops the partitions past the retention');
is($node->safe_psql('postgres', q{SELECT count(*) FROM events WHERE uuid_timestamp(id) < now() - interval '2 days'}), '0',
	'with their rows');

# The partitions a count over WHERE scans, by name, sorted.
sub scanned
{
	my ($where) = @_;
	my %seen;
	my @names = $node->safe_psql('postgres', "EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE $where") =~ / on (events_\w+)/g;
	return join(" ", sort(grep { !/_pkey$/ && !$seen{$_}++ } @names));
}

# A window of the last hour scans the partitions of the days it touches
# (today's, and yesterday's in the first hour of a day) and no other, the
# default one excluded (the key is declared v7), however it is written.
my $window_days = $node->safe_psql('postgres', q{
	SELECT string_agg(DISTINCT 'events_p' || to_char(d, 'YYYYMMDD'), ' ')
	FROM unnest(ARRAY[now() - interval '1 hour', now()]) d});
for my $where (
	q{uuid_timestamp(id) >= now() - interval '1 hour' AND uuid_timestamp(id) < now()},
	q{id <@ tstzrange(now() - interval '1 hour', now())},
	q{uuid_v7_to_timestamptz(id) BETWEEN now() - interval '1 hour' AND now()})
{
	is(scanned($where), $window_days, "$where: the window's days' partitions only");
	is($node->safe_psql('postgres', "SELECT count(*) FROM events WHERE $where"),
		$node->safe_psql('postgres', "SELECT count(*) FROM events WHERE (uuid_timestamp(id) >= now() - interval '1 hour' AND uuid_timestamp(id) < now()) IS TRUE"),
		"$where: the rows of the definition");
}

# A window open towards the future must also read the partitions ahead and
# the default one (a key dated past the last partition lands there), and
# none before the window.
my $open_expected = $node->safe_psql('postgres', q{
	SELECT string_agg(name, ' ' ORDER BY name) FROM (
	  SELECT p.partition_tablename AS name
	  FROM partman.show_partitions('public.events') p,
	       partman.show_partition_info(p.partition_schemaname || '.' || p.partition_tablename, p_parent_table := 'public.events') i
	  WHERE i.child_end_time > now() - interval '1 hour'
	  UNION ALL SELECT 'events_default') s});
is(scanned(q{uuid_timestamp(id) >= now() - interval '1 hour'}), $open_expected,
	'a window open towards the future: the partitions from its first day on, and the default one');

# A key dated past the premade partitions (a client's clock ahead, a
# shifted DEFAULT, a copied row) lands in the default partition, where
# partman.check_default() finds it.  Once the clock nears its day, the
# partition run_maintenance must make would take it from the default one:
# pg_partman 5.2 fails there, 5.5 skips the table with a WARNING; neither
# makes a partition after it, so new rows would go to the default
# partition once the premade ones run out.
# docs/partman.md's repair: 5.5's partition_data_time(); before 5.5, which
# refuses a uuid key there, the rows moved by hand into the partitions
# create_partition_time() makes for them.  After it, maintenance runs and
# new rows never reach the default partition.
my $stray = $node->safe_psql('postgres', q{
	INSERT INTO events (id, payload) VALUES (uuid_timestamptz_to_v7(now() + interval '7 days'), -1) RETURNING id});
my $stray_day = $node->safe_psql('postgres', q{SELECT to_char(now() + interval '7 days', 'YYYYMMDD')});
is($node->safe_psql('postgres', q{SELECT default_table || ' ' || count FROM partman.check_default(p_exact_count := true)}),
	'public.events_default 1', 'partman.check_default() finds the key past the premade partitions');
# maintenance every day, as its background worker runs it, until it fails
# or warns: three days before the key's day, when premake needs its
# partition
my $new_partman = $partman_version !~ /^5\.[0-4]\./;
my ($rc, $out, $err);
my $day = 3;
my $count_partitions = q{SELECT count(*) FROM partman.show_partitions('public.events')};
my $partitions_before;
while ($day < 7)
{
	$day++;
	$clock->set("+${day}d");
	$node->safe_psql('postgres', 'INSERT INTO events (payload) SELECT g FROM generate_series(1, 100) g');
	$partitions_before = $node->safe_psql('postgres', $count_partitions);
	($rc, $out, $err) = $node->psql('postgres', 'CALL partman.run_maintenance_proc()');
	last if $rc != 0 || $err =~ /WARNING/;
}
is($day, 7, 'maintenance runs until the key\'s partition is due, three days ahead of its day');
is($node->safe_psql('postgres', $count_partitions), $partitions_before,
	"pg_partman $partman_version: from then on it makes no partition for the table");
if ($new_partman)
{
	is($rc, 0, "pg_partman $partman_version: run_maintenance goes on");
	like($err, qr/WARNING:.*events/s, 'and warns, skipping the table') or diag($err);
}
else
{
	like($err, qr/updated partition constraint for default partition "events_default" would be violated/,
		"pg_partman $partman_version: run_maintenance fails");
}
# The repair for this pg_partman, as docs/partman.md (which the README
# links) has it.
my $readme = slurp_file(dirname(__FILE__) . '/../../docs/partman.md');
my $marker = $new_partman ? 'partition_data_time' : 'CREATE TEMP TABLE strays';
my ($repair) = $readme =~ /```sql\n((?:(?!```).)*?\Q$marker\E(?:(?!```).)*?)```/s
  or die "docs/partman.md's repair with $marker is missing";
$node->safe_psql('postgres', $repair);
is($node->safe_psql('postgres', 'SELECT count(*) FROM events_default'), '0', 'the repair empties the default partition');
is($node->safe_psql('postgres', "SELECT tableoid::regclass FROM events WHERE id = '$stray'"), "events_p$stray_day",
	'the key is in the partition of its day');
for my $d (7 .. 14)
{
	$clock->set("+${d}d");
	$node->safe_psql('postgres', 'INSERT INTO events (payload) SELECT g FROM generate_series(1, 100) g');
	$node->safe_psql('postgres', 'CALL partman.run_maintenance_proc()');
}
is($node->safe_psql('postgres', 'SELECT count(*) FROM events_default'), '0',
	'maintenance runs again, every day after, and new rows never reach the default partition');
my %have = map { $_ => 1 } split ' ', $node->safe_psql('postgres', $days);
is(join(' ', grep { !$have{$_} } map { $node->safe_psql('postgres', "SELECT to_char(now() + interval '$_ days', 'MM-DD')") } 0 .. 3),
	'', 'today and the three days ahead have their partitions');

done_testing();
