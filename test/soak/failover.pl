# make soak (not part of CI): order and durability through many failovers.
#
# Two nodes under pgbench insert load with uuid_generate_v7() keys, with
# uuidx.wal_log_mark on and synchronous replication (synchronous_commit =
# remote_apply).  Each cycle: pgbench writes through the primary, the
# primary's postmaster is killed (kill -9), the standby is promoted, and
# the old primary is brought back as the new standby with pg_rewind.  The
# node promoted runs its clock an hour further behind each cycle
# (libfaketime), so every promotion depends on the marks it replayed.
#
# At the end: no key twice; no key of a cycle below a key of an earlier
# cycle; and no committed row lost: each cycle holds at least the
# transactions pgbench counted as done.
#
#   UUIDX_SOAK_CYCLES   cycles (default 20)
#   UUIDX_SOAK_SECONDS  a cycle's load: its primary is killed 70% of these
#                       seconds after the cycle's first commit (default 3)
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use Time::HiRes qw(time sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FakeClock;

my $cycles = $ENV{UUIDX_SOAK_CYCLES} // 20;
my $seconds = $ENV{UUIDX_SOAK_SECONDS} // 3;
my $clients = 4;

sub configure
{
	my ($node) = @_;
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uuidx'
uuidx.wal_log_mark = on
wal_log_hints = on
wal_keep_size = '512MB'
synchronous_commit = remote_apply
restart_after_crash = off
});
}

# Point a stopped node at the primary as its standby.
sub follow
{
	my ($node, $primary) = @_;
	$node->append_conf('postgresql.conf', "primary_conninfo = '" . $primary->connstr . " application_name=" . $node->name . "'");
	$node->set_standby_mode;
}

my $a = PostgreSQL::Test::Cluster->new('soak_a');
$a->init(allows_streaming => 1);
configure($a);
$a->start;
$a->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), cycle int NOT NULL)});
$a->backup('soak_base');
my $b = PostgreSQL::Test::Cluster->new('soak_b');
$b->init_from_backup($a, 'soak_base', has_streaming => 1);
configure($b);
$b->append_conf('postgresql.conf', "synchronous_standby_names = '*'");
FakeClock::run_behind($b, '-1h', 'start');
# Synchronous from now on, with a standby to wait for.
$a->append_conf('postgresql.conf', "synchronous_standby_names = '*'");
$a->reload;
$a->poll_query_until('postgres', q{SELECT sync_state = 'sync' FROM pg_stat_replication})
  or die 'the standby did not become synchronous';

my $script = $a->basedir . '/insert.sql';
append_to_file($script, "INSERT INTO t (cycle) VALUES (:cycle);\n");

my ($primary, $standby) = ($a, $b);
my %done;
# The primary key turns a duplicate into an error of pgbench's; a killed
# run's other errors (lost connections) are expected.
my $duplicate_errors = 0;
my $start = time;
for my $cycle (1 .. $cycles)
{
	my ($out, $err) = ('', '');
	# pgbench would run far longer than the cycle: the kill always comes
	# under load, however slowly its clients connect.
	my $load = IPC::Run::start(
		[ 'pgbench', '--no-vacuum', '--client' => $clients,
		  '--time' => $seconds + $PostgreSQL::Test::Utils::timeout_default,
		  '--define' => "cycle=$cycle", '--file' => $script, $primary->connstr('postgres') ],
		'>' => \$out, '2>' => \$err);
	$primary->poll_query_until('postgres', "SELECT count(*) > 0 FROM t WHERE cycle = $cycle")
	  or die "cycle $cycle: pgbench committed nothing";
	sleep $seconds * 0.7;
	my ($postmaster) = slurp_file($primary->data_dir . '/postmaster.pid') =~ /\A(\d+)/;
	$primary->kill9;
	# The postmaster's children exit once they see it gone; until they
	# have, its shared memory is in use, and until the postmaster itself is
	# gone (reaped), its postmaster.pid names a live process: the data
	# directory cannot be recovered.  (pgrep run without a shell: a shell's
	# command line would hold the pattern, and pgrep would find it.)
	my $name = $primary->name;
	my $t_kill = time;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (time < $deadline
		&& (kill(0, $postmaster)
			|| IPC::Run::run([ 'pgrep', '-f', "postgres: $name:" ], '>', \my $children)))
	{
		sleep 0.1;
	}
	note sprintf('cycle %d: the killed server\'s processes gone after %.1f s', $cycle, time - $t_kill);
	$load->finish;
	# Transactions pgbench saw committed (a killed run still reports them).
	$done{$cycle} = $out =~ /number of transactions actually processed: (\d+)/ ? $1 : 0;
	$duplicate_errors += () = $err =~ /duplicate key value violates unique constraint/g;

	$standby->promote;
	$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die "cycle $cycle: the standby was not promoted";
	$standby->safe_psql('postgres', 'CHECKPOINT');

	# The old primary: rewound onto the new one, then its standby, its
	# clock an hour behind the new primary's.
	my $conf = $primary->data_dir . '/postgresql.conf';
	my $saved = slurp_file($conf);
	my ($rewind_out, $rewind_err);
	IPC::Run::run([ 'pg_rewind', '--target-pgdata' => $primary->data_dir,
		'--source-server' => $standby->connstr('postgres') ], '>' => \$rewind_out, '2>' => \$rewind_err)
	  or die "cycle $cycle: pg_rewind failed: $rewind_err";
	open my $fh, '>', $conf or die $!;
	print $fh $saved;
	close $fh;
	follow($primary, $standby);
	FakeClock::run_behind($primary, '-' . ($cycle + 1) . 'h', 'start');
	$standby->poll_query_until('postgres', q{SELECT sync_state = 'sync' FROM pg_stat_replication})
	  or die "cycle $cycle: the rewound node did not become a synchronous standby";
	($primary, $standby) = ($standby, $primary);
	note sprintf('cycle %d: %d transactions done, %.0f s', $cycle, $done{$cycle}, time - $start);
}

my %held = map { split /\|/ } split /\n/,
  $primary->safe_psql('postgres', 'SELECT cycle, count(*) FROM t GROUP BY cycle');
my $lost = 0;
$lost += ($done{$_} > ($held{$_} // 0) ? $done{$_} - ($held{$_} // 0) : 0) for keys %done;
my ($rows, $distinct) = split /\|/, $primary->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t');
my $below = $primary->safe_psql('postgres', q{
	SELECT count(*) FROM (
	  SELECT cycle, min(id) AS first FROM t GROUP BY cycle) c
	WHERE c.first < (SELECT id FROM t e WHERE e.cycle < c.cycle ORDER BY id DESC LIMIT 1)});
my $committed = 0;
$committed += $_ for values %done;
diag sprintf('%d failovers in %.0f s: %d rows, %d transactions pgbench counted as committed',
	$cycles, time - $start, $rows, $committed);
is($duplicate_errors + $rows - $distinct, 0,
	"$cycles failovers: 0 duplicate keys among $rows rows (pgbench reported none, none stored)");
is($below, 0, "$cycles failovers: 0 cycles whose first key sorts below a key of an earlier cycle");
is($lost, 0, "$cycles failovers: 0 committed rows lost (synchronous_commit = remote_apply)");

$primary->stop;
$standby->stop;
done_testing();
