# The mark's waits and upkeep (issue 48):
#
#  1. The mark worker's write stalled: every fsync of the worker delayed
#     10 s (strace's fault injection), so that it holds the mark's writer
#     role, as a write to a stalled disk does.  Values the mark covers go
#     on meanwhile; a value past the mark waits on a condition variable,
#     seen as an Extension wait from a session that never called uuidx, and
#     statement_timeout = '1s' ends it in at most 1.1 s with 57014, a cancel
#     request at once, and no value beyond the mark is handed out; once the
#     worker is let go, every key is above every earlier key.
#  2. Without the worker (max_worker_processes = 0, on the primary and its
#     standby, which hot standby requires): the postmaster's log has uuidx's
#     WARNING naming max_worker_processes, uuidx_mark_status() says the
#     worker does not run, and the standby's redo writes the replayed marks
#     durably itself: its durable writes count up during replay and no
#     replayed mark waits for its fsync; a mark it cannot write stops the
#     replay, and a start after the disk is writable again replays it.  A
#     session of the standby that writes the standby's mark (its fsyncs
#     held) while marks replay: the file ends with the greatest replayed
#     mark, without the worker and with it.
#  3. uuidx's lock is named "uuidx" in every session (gdb holds it).
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use Time::HiRes qw(time sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# The worker's pid and whether it holds the writer's role.
sub status
{
	my ($node, $what) = @_;
	return $node->safe_psql('postgres', "SELECT $what FROM uuidx_mark_status()");
}

# psql's run of $sql: (seconds, exit code, stderr).
sub timed
{
	my ($node, $sql) = @_;
	my $t0 = time;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	return (time - $t0, $ret, $err);
}

# --- 1. The worker's write stalled.
SKIP:
{
	skip 'strace is not installed (tools/test.sh installs it)', 12
	  unless system('strace -V >/dev/null 2>&1') == 0;

	my $node = PostgreSQL::Test::Cluster->new('stall');
	$node->init;
	# (the test clusters run with fsync = off, which skips every fsync)
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'\nfsync = on");
	$node->start;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION uuidx;
		CREATE TABLE t (n bigserial PRIMARY KEY, id uuid DEFAULT uuid_generate_v7())});

	# (a worker without a database connection is not in pg_stat_activity)
	$node->poll_query_until('postgres', 'SELECT worker_running FROM uuidx_mark_status()')
	  or die 'the mark worker did not start';
	my $worker = status($node, 'worker_pid');
	like(slurp_file("/proc/$worker/cmdline"), qr/uuidx mark worker/,
		'uuidx_mark_status() names the mark worker\'s pid');

	$node->safe_psql('postgres', 'INSERT INTO t DEFAULT VALUES');
	$node->poll_query_until('postgres',
		'SELECT worker_last_move IS NOT NULL FROM uuidx_mark_status()')
	  or die 'the worker never moved the mark';

	# Every fsync of the worker's takes 10 s from now on.
	my ($strace_out, $strace_err) = ('', '');
	my $strace = IPC::Run::start(
		[ 'strace', '-qq', '-p', $worker, '-e', 'trace=fsync,fdatasync',
		  '-e', 'inject=fsync,fdatasync:delay_enter=10000000', '-o', '/dev/null' ],
		'>', \$strace_out, '2>', \$strace_err);
	# attached once the worker is stopped for it, or strace said why not
	my $attach = time + 10;
	while (time < $attach && $strace_err eq '' && slurp_file("/proc/$worker/status") !~ /^TracerPid:\s+[1-9]/m)
	{
		$strace->pump_nb;
		sleep 0.05;
	}
	is($strace_err, '', 'strace attached to the worker');

	# Values keep coming, the worker renews the mark and stalls in its write,
	# holding the role; the values the mark covers go on.
	my ($covered, $slowest, $held) = (0, 0, 0);
	my $deadline = time + 20;
	while (time < $deadline)
	{
		my $t0 = time;
		my ($ret, $row) = $node->psql('postgres', q{
			SET statement_timeout = '1s';
			WITH v AS (INSERT INTO t DEFAULT VALUES RETURNING id)
			SELECT (SELECT writer_pid FROM uuidx_mark_status()),
			       uuid_v7_to_timestamptz((SELECT id FROM v)) <= reserved_until
			FROM uuidx_generator_state() WHERE generator = 'v7'});
		my $took = time - $t0;
		last if $ret != 0;		# past the mark already
		my ($writer, $in) = split /\|/, $row;
		if ($writer eq $worker)
		{
			$held = 1;
			$covered++ if $in eq 't';
			$slowest = $took if $took > $slowest;
			last if $covered >= 3;
		}
		sleep 0.02;
	}
	ok($held, 'the stalled worker holds the mark\'s writer role');
	cmp_ok($covered, '>=', 3, 'values the mark covers are handed out while the worker writes');
	cmp_ok($slowest, '<', 0.5, "none of them waited (slowest ${slowest}s, psql included)");

	# Past the mark: the value waits, interruptibly, and times out.
	my $until = $node->safe_psql('postgres',
		"SELECT extract(epoch FROM reserved_until - clock_timestamp()) FROM uuidx_generator_state() WHERE generator = 'v7'");
	sleep($until + 0.05) if $until > 0;
	is(status($node, 'writer_pid'), $worker, 'the worker still writes');
	my ($base) = timed($node, 'SELECT 1');
	my ($out, $err) = ('', '');
	my $t0 = time;
	my $waiting = IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $node->connstr('postgres'),
		  '-c', "SET statement_timeout = '1s'",
		  '-c', 'INSERT INTO t DEFAULT VALUES' ],
		'>', \$out, '2>', \$err);
	sleep 0.5;
	# a session of its own, which has not called uuidx
	my $seen = $node->safe_psql('postgres', q{
		SELECT wait_event_type || ':' || wait_event FROM pg_stat_activity
		WHERE query = 'INSERT INTO t DEFAULT VALUES'});
	like($seen, qr/^Extension:(UuidxMarkWrite|[Ee]xtension)$/,
		"the value waits for the writer, seen as $seen");
	$waiting->finish;
	my $took = time - $t0 - $base;
	like($err, qr/canceling statement due to statement timeout/,
		'statement_timeout ends the wait with its error');
	cmp_ok($took, '<=', 1.1, sprintf('within 1.1 s (%.3f s, less psql\'s own %.3f s)', $took, $base));

	# A cancel request ends a wait at once.
	($out, $err) = ('', '');
	$waiting = IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $node->connstr('postgres'),
		  '-c', 'INSERT INTO t DEFAULT VALUES' ],
		'>', \$out, '2>', \$err);
	$node->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity
		WHERE query = 'INSERT INTO t DEFAULT VALUES' AND wait_event_type = 'Extension'})
	  or die 'the second value did not wait';
	$t0 = time;
	$node->safe_psql('postgres', q{
		SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		WHERE query = 'INSERT INTO t DEFAULT VALUES'});
	$waiting->finish;
	$took = time - $t0;
	like($err, qr/canceling statement due to user request/, 'a cancel ends the wait');
	cmp_ok($took, '<', 0.5, sprintf('at once (%.3f s)', $took));

	# Let the worker go: values go on, above every earlier one.
	$strace->kill_kill;
	$node->safe_psql('postgres', 'INSERT INTO t (id) SELECT uuid_generate_v7() FROM generate_series(1, 1000)');
	is($node->safe_psql('postgres', q{
		SELECT count(*) FROM (SELECT id < lag(id) OVER (ORDER BY n) AS down FROM t) s WHERE down}),
		'0', 'after the release, every key is above every earlier key');
	$node->stop;
}

# --- 2. No worker.
my $primary = PostgreSQL::Test::Cluster->new('noworker');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', q{
shared_preload_libraries = 'uuidx'
uuidx.wal_log_mark = on
max_worker_processes = 0
});
$primary->start;
like(slurp_file($primary->logfile),
	qr/WARNING:  the uuidx mark worker could not be registered.*\n(.*\n)*?.*HINT:  Raise max_worker_processes/,
	'the log has the WARNING and its HINT');
$primary->safe_psql('postgres', 'CREATE EXTENSION uuidx; CREATE TABLE t (id uuid)');
is(status($primary, 'worker_running::text || coalesce(worker_pid::text, \'-\')'), 'false-',
	'uuidx_mark_status(): no worker');
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('noworker_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
my $before = status($standby, 'durable_writes');

# Three marks or more over 2.5 s, each in WAL.
for (1 .. 25)
{
	$primary->safe_psql('postgres', 'INSERT INTO t SELECT uuid_generate_v7()');
	sleep 0.1;
}
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
my ($writes, $unsynced) = split /\|/, status($standby, 'durable_writes, unsynced');
cmp_ok($writes - $before, '>=', 2, "the standby's redo wrote its marks durably (" . ($writes - $before) . ' writes)');
is($unsynced, 'f', 'no replayed mark waits for its fsync');

# A session of the standby's own moves its mark (uuidx_generator_advance()
# writes the standby's file) with its fsyncs held 3 s each, while the
# primary's marks replay: redo waits for the session's write, then writes
# its marks (durably without the worker, renamed with it, the worker
# syncing).  Either way the file ends with the greatest replayed mark, past
# the advance's, and made durable.
sub standby_writer
{
	my ($worker) = @_;
	my ($out, $err) = ('', '');
	my $session = IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $standby->connstr('postgres'),
		  '-c', 'SELECT pg_sleep(1.5)',
		  '-c', "SELECT (extract(epoch FROM now() + interval '1 second') * 1000000)::bigint, uuidx_generator_advance(now() + interval '1 second') IS NOT NULL" ],
		'>', \$out, '2>', \$err);
	$standby->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(1.5)'")
	  or die 'the session did not start';
	my $pid = $standby->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(1.5)'");
	my $strace = IPC::Run::start(
		[ 'strace', '-qq', '-p', $pid, '-e', 'trace=fsync,fdatasync',
		  '-e', 'inject=fsync,fdatasync:delay_enter=3000000', '-o', '/dev/null' ]);
	$standby->poll_query_until('postgres', "SELECT writer_pid = $pid FROM uuidx_mark_status()")
	  or die 'the session did not become the writer';
	for (1 .. 20)
	{
		$primary->safe_psql('postgres', 'INSERT INTO t SELECT uuid_generate_v7()');
		sleep 0.1;
	}
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	$session->finish;
	$strace->kill_kill;
	my ($advanced) = $out =~ /^(\d+)\|t$/m;
	my $with = $worker ? 'with the worker' : 'without it';
	ok(defined $advanced, "$with: the session moved the mark");
	ok($standby->poll_query_until('postgres', 'SELECT NOT unsynced FROM uuidx_mark_status()'),
		"$with: no replayed mark waits for its fsync");
	my ($file_mark) = slurp_file($standby->data_dir . '/uuidx.hwm') =~ /unix_us=(\d+)/;
	my $mark = $standby->safe_psql('postgres', q{
		SELECT (extract(epoch FROM reserved_until) * 1000000)::bigint
		FROM uuidx_generator_state() WHERE generator = 'v7'});
	cmp_ok($mark, '>', $advanced // 0, "$with: the marks replayed meanwhile passed the advance");
	is($file_mark, $mark, "$with: the mark file holds the standby's mark");
}

SKIP:
{
	skip 'strace is not installed (tools/test.sh installs it)', 11
	  unless system('strace -V >/dev/null 2>&1') == 0;
	$standby->append_conf('postgresql.conf', 'fsync = on');
	$standby->restart;
	standby_writer(0);

	# (a standby may have more worker processes than its primary)
	$standby->append_conf('postgresql.conf', 'max_worker_processes = 8');
	$standby->restart;
	$standby->poll_query_until('postgres', 'SELECT worker_running FROM uuidx_mark_status()')
	  or die "the standby's worker did not start";
	standby_writer(1);

	$standby->append_conf('postgresql.conf', 'max_worker_processes = 0');
	$standby->restart;
	# Without the worker, a replayed mark the standby cannot write stops the
	# replay (no one would write it later, and a restartpoint could pass
	# it); once the file can be written, a start replays it again.
	my $tmp = $standby->data_dir . '/uuidx.hwm.tmp';
	mkdir $tmp or die "$tmp: $!";
	my $log_at = -s $standby->logfile;
	$primary->safe_psql('postgres', "SELECT uuidx_generator_advance(now() + interval '1 minute')");
	my $stopped = 0;
	for (1 .. 100)
	{
		last if ($stopped = !-e $standby->data_dir . '/postmaster.pid');
		sleep 0.1;
	}
	ok($stopped, 'without the worker, a mark the standby cannot write stops it');
	like(substr(slurp_file($standby->logfile), $log_at),
		qr/(ERROR|FATAL):  could not write the high-water mark replayed from WAL to "uuidx.hwm"/,
		'with uuidx\'s error');
	rmdir $tmp or die "$tmp: $!";
	$standby->_update_pid(0);
	$standby->start;
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	my ($file_mark) = slurp_file($standby->data_dir . '/uuidx.hwm') =~ /unix_us=(\d+)/;
	is($file_mark, $standby->safe_psql('postgres', q{
		SELECT (extract(epoch FROM reserved_until) * 1000000)::bigint
		FROM uuidx_generator_state() WHERE generator = 'v7'}),
		'started again, it replayed the mark into the file');
}
$standby->stop;
$primary->stop;

# --- 3. The lock's name.  A session holds uuidx's lock (stopped by gdb in
# LWLockRelease(), before it lets go), another waits for it, and a third,
# which never called uuidx, sees the wait as LWLock "uuidx" (before 1.5.0
# it read "extension": the name was given per session, on first use).
SKIP:
{
	skip 'needs gdb (Debian package gdb) on x86-64', 1
	  unless system('gdb --version >/dev/null 2>&1') == 0 && `uname -m` =~ /x86_64/;
	my $node = PostgreSQL::Test::Cluster->new('tranche');
	$node->init;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uuidx');
	my @psql = ('psql', '-XAtq', '-d', $node->connstr('postgres'));
	my $holder = IPC::Run::start(
		[ @psql, '-c', 'SELECT pg_sleep(1)', '-c', 'SELECT count(*) FROM uuidx_mark_status()' ],
		'>', \my $hout, '2>', \my $herr);
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(1)'")
	  or die 'the holder did not start';
	my $pid = $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(1)'");
	my $gdb = IPC::Run::start(
		[ 'gdb', '-p', $pid, '-batch',
		  '-ex', 'break LWLockRelease if $rdi == (long) &uuidx_state->lock',
		  '-ex', 'continue', '-ex', 'shell sleep 4', '-ex', 'detach' ],
		'>', \my $gout, '2>', \my $gerr);
	my $deadline = time + 20;
	$gdb->pump_nb, sleep 0.1 while time < $deadline && $gout !~ /Breakpoint 1,/;
	my $waiter = IPC::Run::start(
		[ @psql, '-c', 'SELECT uuidx_generator_advance(now()) IS NOT NULL' ],
		'>', \my $wout, '2>', \my $werr);
	my $seen = '';
	$deadline = time + 3;
	while (time < $deadline && $seen eq '')
	{
		$seen = $node->safe_psql('postgres', q{
			SELECT wait_event_type || ':' || wait_event FROM pg_stat_activity
			WHERE query LIKE 'SELECT uuidx_generator_advance%' AND wait_event_type = 'LWLock'});
		sleep 0.1;
	}
	is($seen, 'LWLock:uuidx', 'a session that never called uuidx names its lock');
	$gdb->finish;
	$holder->finish;
	$waiter->finish;
	$node->stop;
}

done_testing();
