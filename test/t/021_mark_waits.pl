# The mark's waits and upkeep (issues 48 and 54).  Every check counts
# events or waits for a state, never for a span of time: values are
# counted in positions the mark covers, waits are seen in pg_stat_activity,
# and a bound on time is only ever one that a slower machine makes easier.
#
#  1. The mark worker's write stalled: every fsync of the worker held
#     (strace's fault injection), so that it holds the mark's writer role,
#     as a write to a stalled disk does.  The 65,535 values the mark covers
#     go on meanwhile; a value past the mark waits on a condition variable,
#     seen as an Extension wait from a session that never called uuidx; a
#     cancel request, or statement_timeout with 57014, ends it while the
#     worker still writes, and no value beyond the mark is handed out; once
#     the worker is let go, every key is above every earlier key.
#  2. Without the worker (max_worker_processes = 0, on the primary and its
#     standby, which hot standby requires): the postmaster's log has uuidx's
#     WARNING naming max_worker_processes, uuidx_mark_status() says the
#     worker does not run, and the standby's redo writes the replayed marks
#     durably itself: its durable writes count up during replay and no
#     replayed mark waits for its fsync; a mark it cannot write stops the
#     replay, and a start after the disk is writable again replays it.  A
#     session of the standby that writes the standby's mark (its fsyncs
#     held) while a mark replays: redo waits for it, and the file ends with
#     the greatest replayed mark, without the worker and with it.  The
#     worker's fsync of a replayed mark failing: retried a second later at
#     most and reported once in 10 s at most with data_sync_retry on; a
#     PANIC that stops the standby with it off, and a start replays it.
#     (013_standbys.pl shows a mark redo cannot write stopping the replay
#     with the worker, and order kept.)
#  3. A mark that cannot be written while covered values keep coming: the
#     worker retries once a second at most, the log reports once in 10 s
#     at most, counting the failures between, and says when a write
#     succeeds again.
#  4. uuidx's lock is named "uuidx" in every session (gdb holds it).
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use Time::HiRes qw(time sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FakeClock;

# Move a node's generators this far past its mark and its clock: a move
# of the mark that writes the file and, with the mark in WAL, a record.
sub advance_past_mark
{
	my ($node, $interval) = @_;
	$node->safe_psql('postgres', qq{
		SELECT uuidx_generator_advance(greatest(now(), reserved_until) + interval '$interval')
		FROM uuidx_generator_state() WHERE generator = 'v7'});
}

# The worker's pid and whether it holds the writer's role.
sub status
{
	my ($node, $what) = @_;
	return $node->safe_psql('postgres', "SELECT $what FROM uuidx_mark_status()");
}

# Hold every fsync of process $pid (strace's fault injection, a delay of
# 1,000 s) until the returned harness is killed; returns once strace has
# attached, or dies saying why not.  With $trace, its latch waits are
# written to that file too.
sub hold_fsyncs
{
	my ($pid, $trace) = @_;
	my ($out, $err) = ('', '');
	my $strace = IPC::Run::start(
		[ 'strace', '-qq', '-p', $pid, '-e', 'trace=fsync,fdatasync' . ($trace ? ',epoll_wait' : ''),
		  '-e', 'inject=fsync,fdatasync:delay_enter=1000000000', '-o', $trace // '/dev/null' ],
		'>', \$out, '2>', \$err);
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (slurp_file("/proc/$pid/status") !~ /^TracerPid:\s+[1-9]/m)
	{
		$strace->pump_nb;
		die "strace did not attach to $pid: $err" if $err ne '' || time > $deadline;
		sleep 0.05;
	}
	return $strace;
}

# --- 1. The worker's write stalled.  Counted in values, not in time: the
# generators are moved ten minutes ahead of the clock, to the first position
# of a millisecond, with the mark at that millisecond and no further
# (uuidx_generator_advance() moves it to its target), so the mark covers
# the next 65,535 v7 values, however long they take, and not the one after.
SKIP:
{
	skip 'strace is not installed (tools/test.sh installs it)', 11
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

	# Every fsync of the worker's is held from now on, until strace ends.
	# No value has been made yet, so the worker writes nothing.  Once it
	# has ended a round (its wait for the latch is seen) it takes the next
	# move of the generators for values being made.
	my $trace = $node->basedir . '/worker.trace';
	my $strace = hold_fsyncs($worker, $trace);
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	sleep 0.05 until slurp_file($trace) =~ /^epoll_wait\(.*\)\s+= /m || time > $deadline;

	# The generators moved (by the session, whose fsyncs are not held), the
	# worker keeps the mark half a second ahead of the newest value: it
	# starts a write, which stalls in its first fsync, holding the role.
	my $floor = $node->safe_psql('postgres', "SELECT uuid_v7_lower_bound(now() + interval '10 minutes')");
	$node->safe_psql('postgres', "SELECT uuidx_generator_advance('$floor'::uuid)");
	ok($node->poll_query_until('postgres', "SELECT writer_pid = $worker FROM uuidx_mark_status()"),
		'the stalled worker holds the mark\'s writer role');

	# The 65,535 values the mark covers, in two statements: none waits for
	# the writer, which still holds the role after them (a value that waited
	# would wait until strace ends, and fail on its statement_timeout).
	my $covered = sub {
		return $node->safe_psql('postgres', qq{
			SELECT count(*) FILTER (WHERE uuid_v7_to_timestamptz(id) <= reserved_until)
			       || ' ' || (SELECT writer_pid = $worker FROM uuidx_mark_status())::text
			FROM t, uuidx_generator_state() WHERE generator = 'v7' AND id > '$floor'});
	};
	my ($ret, $out, $err) = $node->psql('postgres', q{
		SET statement_timeout = '60s';
		INSERT INTO t SELECT FROM generate_series(1, 1000)});
	is("$ret $err", '0 ', 'values the mark covers are handed out while the worker writes');
	is($covered->(), '1000 true', 'all 1,000 under the mark, and the worker still writes');
	($ret, $out, $err) = $node->psql('postgres', q{
		SET statement_timeout = '60s';
		INSERT INTO t SELECT FROM generate_series(1, 64535)});
	is("$ret $err " . $covered->(), '0  65535 true', 'so are the rest of the 65,535 the mark covers');

	# Past the mark: the value waits, interruptibly.  A session of its own,
	# which has not called uuidx, sees the wait; a cancel request ends it,
	# while the worker still holds the role: the cancel, not the write,
	# ended the wait.
	my $session = $node->background_psql('postgres', on_error_stop => 0);
	$session->query_until(qr/^waiting$/m, q{
		\echo waiting
		INSERT INTO t DEFAULT VALUES;
});
	ok($node->poll_query_until('postgres', q{
		SELECT wait_event_type || ':' || wait_event ~ '^Extension:(UuidxMarkWrite|[Ee]xtension)$'
		FROM pg_stat_activity WHERE query LIKE 'INSERT INTO t DEFAULT VALUES%'}),
		'the value past the mark waits for the writer, seen as an Extension wait');
	$node->safe_psql('postgres', q{
		SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		WHERE query LIKE 'INSERT INTO t DEFAULT VALUES%'});
	$session->quit;
	like($session->{stderr}, qr/canceling statement due to user request/, 'a cancel ends the wait');
	is(status($node, 'writer_pid'), $worker, 'the worker still writes: the cancel ended the wait');

	# statement_timeout ends it with its error, the worker still writing.
	($ret, $out, $err) = $node->psql('postgres', q{
		SET statement_timeout = '1s';
		INSERT INTO t DEFAULT VALUES});
	like($err, qr/canceling statement due to statement timeout/,
		'statement_timeout ends the wait with its error');
	is(status($node, 'writer_pid') . ' ' . $node->safe_psql('postgres', "SELECT count(*) FROM t WHERE id > '$floor'"),
		"$worker 65535", 'the timeout, not the write, ended it, and no value past the mark was taken');

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
# writes the standby's file) with its fsyncs held, and a greater mark of
# the primary's comes to redo: redo waits for the session's write (the
# startup process shows the wait), and once the session's fsyncs are let
# go writes its mark (durably without the worker, renamed with it, the
# worker syncing).  Either way the file ends with the greatest replayed
# mark, past the advance's, and made durable.
sub standby_writer
{
	my ($worker) = @_;
	my $with = $worker ? 'with the worker' : 'without it';
	# a minute past the standby's mark and its clock, which the renewals of
	# the primary's mark (a second ahead) do not reach meanwhile
	my $target = $standby->safe_psql('postgres', q{
		SELECT greatest(now(), reserved_until) + interval '1 minute'
		FROM uuidx_generator_state() WHERE generator = 'v7'});
	my $session = $standby->background_psql('postgres');
	my $pid = $session->query_safe('SELECT pg_backend_pid()');
	my $strace = hold_fsyncs($pid);
	$session->query_until(qr/^advancing$/m, qq{
		\\echo advancing
		SELECT (extract(epoch FROM '$target'::timestamptz) * 1000000)::bigint, uuidx_generator_advance('$target'::timestamptz) IS NOT NULL;
});
	$standby->poll_query_until('postgres', "SELECT writer_pid = $pid FROM uuidx_mark_status()")
	  or die 'the session did not become the writer';
	# a mark past the session's, replayed while it writes
	$primary->safe_psql('postgres', "SELECT uuidx_generator_advance('$target'::timestamptz + interval '1 second')");
	ok($standby->poll_query_until('postgres', q{
		SELECT wait_event ~ '^(UuidxMarkWrite|[Ee]xtension)$' FROM pg_stat_activity
		WHERE backend_type = 'startup'}), "$with: redo waits for the session's write");
	$strace->kill_kill;
	my $out = $session->query_safe('SELECT 1');
	$session->quit;
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	my ($advanced) = $out =~ /^(\d+)\|t$/m;
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
	skip 'strace is not installed (tools/test.sh installs it)', 21
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

	# The worker's fsync of a replayed mark fails (strace injects EIO).  Where
	# only the file's fails, the marks are written anew in a new file,
	# durably, and nothing stops: the kernel may have dropped what it could
	# not write of the old one, which is not needed.  Where every fsync
	# fails: with data_sync_retry on, tried again a second later at most,
	# and reported once in 10 seconds at most; the file is made durable once
	# the disk works again.  Off (the default), PostgreSQL's PANIC, as for
	# its own files (a later fsync could not be trusted), and a start replays
	# the mark again.
	$standby->append_conf('postgresql.conf', 'data_sync_retry = on');
	$standby->restart;
	$standby->poll_query_until('postgres', 'SELECT worker_running FROM uuidx_mark_status()')
	  or die "the standby's worker did not start";
	my $worker = status($standby, 'worker_pid');
	my $trace = $standby->basedir . '/fsync.trace';
	my $strace = IPC::Run::start(
		[ 'strace', '-qq', '-y', '-p', $worker, '-e', 'trace=fsync', '-e', 'inject=fsync:error=EIO',
		  '-o', $trace ], '>', \my $sout, '2>', \my $serr);
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	sleep 0.05 while slurp_file("/proc/$worker/status") !~ /^TracerPid:\s+[1-9]/m && time < $deadline;
	my $log_at = -s $standby->logfile;
	my $t0 = time;
	advance_past_mark($primary, '10 seconds');
	# three failed rounds, each a second after the one before at least
	my $fails = 0;
	while ($fails < 3 && time < $deadline)
	{
		sleep 0.1;
		$fails = () = slurp_file($trace) =~ /^fsync\(\d+<[^>]*uuidx\.hwm>\).*EIO/mg;
	}
	$strace->kill_kill;
	$fails = () = slurp_file($trace) =~ /^fsync\(\d+<[^>]*uuidx\.hwm>\).*EIO/mg;
	my $reports = () = slurp_file($standby->logfile, $log_at) =~ /WARNING:  could not fsync file "uuidx\.hwm": Input\/output error/g;
	my $elapsed = time - $t0;    # after the counts: it bounds all they saw
	cmp_ok($fails, '<=', 2 + $elapsed, "data_sync_retry on: the worker's fsync is retried at most once a second ($fails in $elapsed s)");
	ok($reports >= 1 && $reports <= 1 + int($elapsed / 10),
		"and reported once every 10 seconds at most ($reports reports in $elapsed s)");
	ok($standby->poll_query_until('postgres', 'SELECT NOT unsynced FROM uuidx_mark_status()'),
		'made durable once the fsync works again');

	$standby->adjust_conf('postgresql.conf', 'data_sync_retry', 'off');
	$standby->restart;
	$standby->poll_query_until('postgres', 'SELECT worker_running FROM uuidx_mark_status()')
	  or die "the standby's worker did not start";
	$worker = status($standby, 'worker_pid');
	my ($pm) = slurp_file($standby->data_dir . '/postmaster.pid') =~ /^(\d+)/;

	# the file's fsync alone fails: the worker's first fsync
	$strace = IPC::Run::start(
		[ 'strace', '-qq', '-y', '-p', $worker, '-e', 'trace=fsync', '-e', 'inject=fsync:error=EIO:when=1',
		  '-o', $trace ], '>', \$sout, '2>', \$serr);
	sleep 0.05 while slurp_file("/proc/$worker/status") !~ /^TracerPid:\s+[1-9]/m && time < $deadline;
	$log_at = -s $standby->logfile;
	my $durable_before = status($standby, 'durable_writes');
	advance_past_mark($primary, '10 seconds');
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	ok($standby->poll_query_until('postgres', "SELECT NOT unsynced AND durable_writes > $durable_before FROM uuidx_mark_status()")
		&& slurp_file($trace) =~ /^fsync\(\d+<[^>]*uuidx\.hwm>\).*EIO/m,
		'the file\'s fsync failing, the marks are written anew, durably');
	$strace->kill_kill;
	ok(kill(0, $pm) && slurp_file($standby->logfile, $log_at) !~ /PANIC/, 'and the standby goes on, without a PANIC');

	$strace = IPC::Run::start(
		[ 'strace', '-qq', '-p', $worker, '-e', 'trace=fsync', '-e', 'inject=fsync:error=EIO',
		  '-o', '/dev/null' ], '>', \$sout, '2>', \$serr);
	sleep 0.05 while slurp_file("/proc/$worker/status") !~ /^TracerPid:\s+[1-9]/m && time < $deadline;
	$log_at = -s $standby->logfile;
	advance_past_mark($primary, '20 seconds');
	my $mark = $primary->safe_psql('postgres', q{
		SELECT (extract(epoch FROM reserved_until) * 1000000)::bigint
		FROM uuidx_generator_state() WHERE generator = 'v7'});
	sleep 0.1 while kill(0, $pm) && time < $deadline;
	$strace->kill_kill;
	ok(!kill(0, $pm), 'data_sync_retry off: a failed fsync of a replayed mark stops the standby');
	like(slurp_file($standby->logfile, $log_at), qr/PANIC:  could not make the high-water mark replayed from WAL durable in "uuidx\.hwm"/,
		'with PostgreSQL\'s PANIC');
	$standby->_update_pid(-1);
	$standby->start;
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	my ($file_mark) = slurp_file($standby->data_dir . '/uuidx.hwm') =~ /unix_us=(\d+)/;
	cmp_ok($file_mark, '>=', $mark, 'started again, it replayed the mark into its file');

	$standby->append_conf('postgresql.conf', 'max_worker_processes = 0');
	$standby->restart;
	# Without the worker, a replayed mark the standby cannot write stops the
	# replay (no one would write it later, and a restartpoint could pass
	# it); once the file can be written, a start replays it again.
	my $tmp = $standby->data_dir . '/uuidx.hwm.tmp';
	unlink $tmp;	# (a new file whose fsync failed above)
	mkdir $tmp or die "$tmp: $!";
	($pm) = slurp_file($standby->data_dir . '/postmaster.pid') =~ /^(\d+)/;
	$log_at = -s $standby->logfile;
	advance_past_mark($primary, '1 minute');
	sleep 0.1 while kill(0, $pm) && time < $deadline;
	ok(!kill(0, $pm), 'without the worker, a mark the standby cannot write stops it');
	like(slurp_file($standby->logfile, $log_at),
		qr/WARNING:  could not create file "uuidx\.hwm\.tmp": Is a directory\n(.*\n)*?.*(ERROR|FATAL):  could not write the high-water mark replayed from WAL to "uuidx.hwm"/,
		'with the failing call and uuidx\'s error');
	rmdir $tmp or die "$tmp: $!";
	$standby->_update_pid(-1);
	$standby->start;
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	($file_mark) = slurp_file($standby->data_dir . '/uuidx.hwm') =~ /unix_us=(\d+)/;
	is($file_mark, $standby->safe_psql('postgres', q{
		SELECT (extract(epoch FROM reserved_until) * 1000000)::bigint
		FROM uuidx_generator_state() WHERE generator = 'v7'}),
		'started again, it replayed the mark into the file');
}
$standby->stop;
$primary->stop;

# --- 3. A mark that cannot be written while values keep coming: the
# worker tries again once a second at most, whatever wakes it, and the log
# reports a failure once every 10 seconds at most, with the count of the
# failures since the last report in its context; the first write that
# succeeds says so.  The clock is frozen at the mark, so that every value
# is covered (none fails) and lies within half a reservation of it: each
# asks the worker to move the mark, which before 1.5.2 woke, failed and
# logged a WARNING for each.  The worker's attempts (strace) and the
# reports (the log) are counted against the seconds that passed, which a
# slower machine only makes more.
SKIP:
{
	skip 'strace is not installed (tools/test.sh installs it)', 5
	  unless system('strace -V >/dev/null 2>&1') == 0;
	my $node = PostgreSQL::Test::Cluster->new('paced');
	$node->init;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
	my $clock = FakeClock->new($node);
	my $S = int(time) + 10;
	$clock->set(FakeClock::utc($S));
	$clock->run($node, 'start');
	$node->safe_psql('postgres', 'CREATE EXTENSION uuidx; SELECT uuid_generate_v7()');
	$node->poll_query_until('postgres', 'SELECT worker_running FROM uuidx_mark_status()')
	  or die 'the mark worker did not start';
	my $worker = status($node, 'worker_pid');
	my $tmp = $node->data_dir . '/uuidx.hwm.tmp';
	mkdir $tmp or die "$tmp: $!";
	my $trace = $node->basedir . '/worker.trace';
	my $strace = IPC::Run::start(
		[ 'strace', '-qq', '-p', $worker, '-e', 'trace=openat', '-o', $trace ],
		'>', \my $sout, '2>', \my $serr);
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	sleep 0.05 while slurp_file("/proc/$worker/status") !~ /^TracerPid:\s+[1-9]/m && time < $deadline;

	# At the mark, values until the log holds a second report.  The time
	# and the log's end are taken before the clock moves, which starts the
	# failures: every report counted comes after t0, so two reports 10 s
	# apart take at least 10 s of it.
	my $log_at = -s $node->logfile;
	my ($values, $reports, $t0) = (0, 0, time);
	$clock->set(FakeClock::utc($S + 1));
	my $failed = qr/WARNING:  could not create file "uuidx\.hwm\.tmp": Is a directory/;
	my $session = $node->background_psql('postgres', on_error_stop => 0);
	while ($reports < 2 && time < $deadline)
	{
		$session->query('SELECT uuid_generate_v7()');
		$values++;
		$reports = () = slurp_file($node->logfile, $log_at) =~ /$failed/g;
		sleep 0.01;
	}
	$strace->kill_kill;
	my $attempts = () = slurp_file($trace) =~ /uuidx\.hwm\.tmp/g;
	my $elapsed = time - $t0;    # after the counts: it bounds all they saw
	note sprintf('%d values in %.1f s: %d attempts of the worker, %d reports', $values, $elapsed, $attempts, $reports);
	cmp_ok($attempts, '<=', 2 + $elapsed,
		"the worker tried at most once a second ($attempts times in $elapsed s, asked by $values values)");
	ok($reports >= 2 && $reports <= 1 + int($elapsed / 10),
		"the log reported the failure at most every 10 seconds ($reports reports in $elapsed s)");
	my ($count) = slurp_file($node->logfile, $log_at) =~
	  /$failed(?:.*\n)*?.*failed attempts since the last report: (\d+)/;
	ok(defined $count && $count >= 1, 'the second report counts the failures since the first (' . ($count // 'none') . ')');

	# Writable again: the next write says so, and values go on quietly.
	rmdir $tmp or die "$tmp: $!";
	until (slurp_file($node->logfile, $log_at) =~ /LOG:  the high-water mark file "uuidx\.hwm" could be written again/
		|| time > $deadline)
	{
		$session->query('SELECT uuid_generate_v7()');
		sleep 0.01;
	}
	like(slurp_file($node->logfile, $log_at),
		qr/LOG:  the high-water mark file "uuidx\.hwm" could be written again\n.*DETAIL:  \d+ retried writes? failed after the last reported failure\./,
		'the first write that succeeds says so, with the failures since the last report');
	$session->{stderr} = '';
	$session->query('SELECT count(uuid_generate_v7()) FROM generate_series(1, 1000)');
	is($session->{stderr}, '', 'values go on without a warning');
	$session->quit;
	$node->stop;
}

# --- 4. The lock's name.  A session holds uuidx's lock (stopped by gdb in
# LWLockRelease() called from uuidx_mark_status(), before it lets go),
# another waits for it, and a third, which never called uuidx, sees the
# wait as LWLock "uuidx" (before 1.5.0 it read "extension": the name was
# given per session, on first use).  Each step waits for the one before:
# gdb's breakpoint set, then hit, then the wait seen, and only then is gdb
# told to let the session go.
SKIP:
{
	skip 'needs gdb (Debian package gdb)', 1
	  unless system('gdb --version >/dev/null 2>&1') == 0;
	my $node = PostgreSQL::Test::Cluster->new('tranche');
	$node->init;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uuidx');
	my $holder = $node->background_psql('postgres');
	my $pid = $holder->query_safe('SELECT pg_backend_pid()');
	my $go = $node->basedir . '/let_go';
	my $hit = $node->basedir . '/stopped';
	my ($gout, $gerr) = ('', '');
	my $gdb = IPC::Run::start(
		[ 'gdb', '-p', $pid, '-batch',
		  # (a signal would end "continue" before the breakpoint: latches'
		  # SIGUSR1 on an assert-enabled build's idle session, say)
		  '-ex', 'handle all nostop noprint pass',
		  '-ex', 'break LWLockRelease if $_caller_is("uuidx_mark_status")',
		  '-ex', 'continue',
		  # (gdb's output to a pipe may wait in its buffer: it says it
		  # stopped the session with a file)
		  '-ex', "shell touch $hit; while [ ! -e $go ]; do sleep 0.1; done",
		  '-ex', 'detach' ],
		'>', \$gout, '2>', \$gerr);
	# gdb's "Continuing." can sit in its output buffer: that it has set the
	# breakpoint and let the session go is read from the session's state,
	# stopped ("t") while gdb attaches, running once gdb continued it
	my $state = sub {
		my ($tracer, $st) = (slurp_file("/proc/$pid/status") =~ /^State:\s+(\S).*^TracerPid:\s+(\d+)/ms)[1, 0];
		return $tracer == 0 ? 'free' : $st eq 't' ? 'stopped' : 'running';
	};
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	my $seen = '';
	until (($seen = $state->()) eq 'running' || !$gdb->pumpable || time > $deadline)
	{
		$gdb->pump_nb;
		sleep 0.05;
	}
	if ($seen ne 'running')
	{
		$gdb->kill_kill;
		$holder->quit;
		$node->stop;
		# gdb could not attach (ptrace not allowed here), or has no Python
		# for $_caller_is: say so; anything else is a failure
		skip "gdb cannot stop the session here: $gerr", 1
		  if $gerr =~ /ptrace|Operation not permitted|_caller_is|Python/;
		die "gdb did not set its breakpoint: $gout $gerr";
	}
	$holder->query_until(qr/^taking$/m, qq{\\echo taking\nSELECT count(*) FROM uuidx_mark_status();\n});
	until (-e $hit || !$gdb->pumpable || time > $deadline)
	{
		$gdb->pump_nb;
		sleep 0.05;
	}
	die "gdb's breakpoint was not hit: $gout $gerr" unless -e $hit;
	my $waiter = $node->background_psql('postgres');
	$waiter->query_until(qr/^waiting$/m, qq{\\echo waiting\nSELECT uuidx_generator_advance(now()) IS NOT NULL;\n});
	$node->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity
		WHERE query LIKE 'SELECT uuidx_generator_advance%' AND wait_event_type = 'LWLock'})
	  or die 'the waiter never waited for the lock';
	is($node->safe_psql('postgres', q{
		SELECT wait_event_type || ':' || wait_event FROM pg_stat_activity
		WHERE query LIKE 'SELECT uuidx_generator_advance%'}),
		'LWLock:uuidx', 'a session that never called uuidx names its lock');
	append_to_file($go, '');
	$gdb->finish;
	$holder->quit;
	$waiter->quit;
	$node->stop;
}

done_testing();
