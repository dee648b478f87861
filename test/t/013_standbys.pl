# Order across failover, switchover, pg_rewind and point-in-time recovery:
# with uuidx.wal_log_mark on, the high-water mark travels in WAL, and a node
# that has replayed a row starts above it when promoted, whatever its clock
# says.  Each standby runs an hour or more behind the primary it follows
# (libfaketime); without the mark in WAL its first values would sort below
# the ones it replayed.
#
# The nodes are shared by the scenarios, one after the other:
#  1. setting off: no uuidx records in WAL; on: pg_waldump lists them and
#     pg_walinspect shows them by name;
#  2. a standby whose uuidx is not preloaded stops at the first record, with
#     core's error and hint, and catches up once uuidx is preloaded;
#  3. point-in-time recovery from a base backup and the WAL archive, to a
#     recovery_target_time, with the clock an hour back;
#  4. failover: the primary stopped with -m immediate, the standby promoted;
#  5. the old primary brought back with pg_rewind as a standby of the new
#     one, then a switchover: the primary stopped cleanly, the standby
#     promoted, and back again;
#  6. a standby restarted after a restartpoint, then promoted;
#  7. a base backup taken during pgbench load, a standby made from it and
#     promoted;
#  8. a standby that cannot write its mark file (a read-only data
#     directory, a directory in place of the new file, a leftover file
#     without write permission) stops its replay, though its worker runs,
#     and replays the mark once started on a writable one.
# After each promotion every v6, v7 and v8 value the new primary generates
# is greater than every one it holds from before, and no committed row the
# scenario promises is lost.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use Time::HiRes qw(time sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FakeClock;

my $rows = 3000;

# A node with uuidx preloaded and the mark in WAL, keeping the WAL pg_rewind
# reads.
sub setup_node
{
	my ($node) = @_;
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uuidx'
uuidx.wal_log_mark = on
wal_log_hints = on
wal_keep_size = '256MB'
});
}

# Rows of a phase, each with a v6, a v7 and a v8 key.
sub write_phase
{
	my ($node, $phase, $n) = @_;
	$node->safe_psql('postgres', qq{
		INSERT INTO t (phase, v6, v7, v8)
		SELECT '$phase', uuid_generate_v6(), uuid_generate_v7(), uuid_generate_v8()
		FROM generate_series(1, $n)});
}

# Every value of the phase is greater than every value of the other phases
# the node holds, for each generator, and the node holds $expect rows of
# each earlier phase named.
sub check_above
{
	my ($node, $phase, $what, %expect) = @_;
	my $row = $node->safe_psql('postgres', join(', ', 'SELECT ' . join(', ', map { qq{
		(SELECT $_ FROM t WHERE phase = '$phase' ORDER BY $_ LIMIT 1)
		  > (SELECT $_ FROM t WHERE phase <> '$phase' ORDER BY $_ DESC LIMIT 1)} } qw(v6 v7 v8)),
		"(SELECT count(*) FROM t WHERE phase = '$phase')"));
	is($row, "t|t|t|$rows", "$what: every new v6, v7 and v8 value is greater than every one from before");
	for my $p (sort keys %expect)
	{
		is($node->safe_psql('postgres', "SELECT count(*) FROM t WHERE phase = '$p'"),
			$expect{$p}, "$what: the $expect{$p} rows of $p are there");
	}
}

# The mark file a base backup or pg_rewind copies covers the values of the
# next second at most: rows written after this pause can reach a standby
# only with their marks in WAL.
sub past_copied_mark { sleep 2.2 }

# Wait until a node has left recovery.
sub wait_promoted
{
	my ($node) = @_;
	$node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die "timed out waiting for " . $node->name . " to be promoted";
}

# A standby of $primary from a new base backup, its clock $behind hours back.
sub new_standby
{
	my ($primary, $name, $behind, %params) = @_;
	my $backup = "b_$name";
	$primary->backup($backup);
	my $standby = PostgreSQL::Test::Cluster->new($name);
	$standby->init_from_backup($primary, $backup, has_streaming => 1, %params);
	setup_node($standby);
	FakeClock::run_behind($standby, "-${behind}h", 'start');
	return $standby;
}

# Rewind a stopped node onto a new primary and point it there as a
# standby.  pg_rewind copies the source's configuration files, so the
# node's own are put back afterwards.
sub rewind_and_follow
{
	my ($node, $primary, $what) = @_;
	my $conf = $node->data_dir . '/postgresql.conf';
	my $saved = slurp_file($conf);

	# pg_rewind reads the source's timeline from its control file, which
	# the first checkpoint after a promotion updates.
	$primary->safe_psql('postgres', 'CHECKPOINT');
	command_ok([ 'pg_rewind', '--target-pgdata' => $node->data_dir,
		'--source-server' => $primary->connstr('postgres') ], $what);
	open my $fh, '>', $conf or die "$conf: $!";
	print $fh $saved;
	close $fh;
	$node->append_conf('postgresql.conf', "primary_conninfo = '" . $primary->connstr . "'");
	$node->set_standby_mode;
}

my $primary = PostgreSQL::Test::Cluster->new('first');
$primary->init(allows_streaming => 1, has_archiving => 1);
setup_node($primary);
$primary->append_conf('postgresql.conf', "uuidx.wal_log_mark = off");
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE EXTENSION pg_walinspect;
	CREATE TABLE t (seq bigserial PRIMARY KEY, phase text, v6 uuid, v7 uuid, v8 uuid)});

# --- 1. The setting.  Off: nothing of uuidx in WAL, as before 1.2.  On (a
# reload): the records are there, pg_waldump lists them under the custom
# resource manager's id, and pg_walinspect, in the server, names them.
sub uuidx_records
{
	my ($node, $from) = @_;
	my $to = $node->lsn('insert');
	my ($stdout, $stderr);
	IPC::Run::run [ 'pg_waldump', '--path' => $node->data_dir . '/pg_wal', '--start' => $from,
		'--end' => $to, '--rmgr' => 'custom167' ], '>' => \$stdout, '2>' => \$stderr;
	return scalar(() = $stdout =~ /^rmgr: custom167 /mg);
}
my $from = $primary->lsn('insert');
is($primary->safe_psql('postgres', "SELECT bool_or(wal_logged) FROM uuidx_generator_state()"), 'f',
	'setting off: uuidx_generator_state() says the mark is not in WAL');
$primary->safe_psql('postgres', 'SELECT uuid_generate_v7()');
sleep 1.2;
write_phase($primary, 'off', 100);
$primary->safe_psql('postgres', 'SELECT pg_switch_wal()');
is(uuidx_records($primary, $from), 0, 'setting off: pg_waldump finds no uuidx records');

# The first value after the setting is turned on writes the mark it is
# under to WAL (or the mark worker has, a moment before), though the mark
# was moved, without a record, a moment before and covers the next second.
# A session started after the reload has the new setting.
sleep 1.2;
$primary->safe_psql('postgres', 'SELECT uuid_generate_v7()');
my $before_first = $primary->lsn('insert');
$primary->adjust_conf('postgresql.conf', 'uuidx.wal_log_mark', 'on');
$primary->reload;
ok($primary->poll_query_until('postgres', "SELECT current_setting('uuidx.wal_log_mark') = 'on'"),
	'setting on after a reload');
$primary->safe_psql('postgres', 'SELECT uuid_generate_v7()');
ok(uuidx_records($primary, $before_first) >= 1,
	'setting on: the mark the first value is under is in WAL');
is($primary->safe_psql('postgres', "SELECT bool_and(wal_logged) FROM uuidx_generator_state()"), 't',
	'setting on: uuidx_generator_state() says the mark is in WAL');
$from = $primary->lsn('insert');
sleep 1.2;
write_phase($primary, 'on', 100);
my $to = $primary->lsn('insert');
ok(uuidx_records($primary, $from) >= 1, 'setting on: pg_waldump lists uuidx records (custom167)');
like($primary->safe_psql('postgres', qq{
	SELECT resource_manager || ' ' || record_type || ': ' || description
	FROM pg_get_wal_records_info('$from', '$to') WHERE resource_manager = 'uuidx' LIMIT 1}),
	qr/^uuidx MARK: v7\/v8 up to \d{4}-\d\d-\d\d .*; v6 up to \d{4}-/,
	'setting on: pg_walinspect shows a uuidx MARK record and its marks');

# --- 2. A standby without uuidx preloaded fails at the first uuidx record
# with core's error and hint, and shuts down; preloaded and started, it
# catches up.
$primary->backup('b_unloaded');
my $unloaded = PostgreSQL::Test::Cluster->new('unloaded');
$unloaded->init_from_backup($primary, 'b_unloaded', has_streaming => 1);
$unloaded->append_conf('postgresql.conf', "shared_preload_libraries = ''");
# (pg_ctl itself, whatever it returns: the primary's mark worker may have
# written a uuidx record already, which kills the standby as soon as it
# streams it, before or after pg_ctl sees it ready; Cluster.pm's start
# bails out where the server is gone by the time it reads postmaster.pid)
PostgreSQL::Test::Utils::system_log('pg_ctl', '-D', $unloaded->data_dir, '-l', $unloaded->logfile,
	'-o', '--cluster-name=unloaded', '-w', 'start');
my $log_offset = 0;
sleep 1.2;
write_phase($primary, 'unloaded', $rows);
ok($unloaded->wait_for_log(qr/resource manager with ID 167 not registered/, $log_offset),
	'a standby without uuidx preloaded stops at the first uuidx record');
like(slurp_file($unloaded->logfile, $log_offset),
	qr/HINT:\s+Include the extension module that implements this resource manager in "?shared_preload_libraries"?/,
	'the error comes with the hint to preload the module');
ok($unloaded->wait_for_log(qr/shutting down due to startup process failure/, $log_offset),
	'and the server shuts down');
PostgreSQL::Test::Utils::system_log('pg_ctl', '-D', $unloaded->data_dir, '-m', 'immediate', 'stop');
$unloaded->adjust_conf('postgresql.conf', 'shared_preload_libraries', "'uuidx'");
$unloaded->start;
$primary->wait_for_catchup($unloaded, 'replay', $primary->lsn('insert'));
is($unloaded->safe_psql('postgres', "SELECT count(*) FROM t WHERE phase = 'unloaded'"), $rows,
	'preloaded and restarted, the standby caught up with nothing lost');

$unloaded->stop;

# --- 3. Point-in-time recovery.  A base backup, rows, a target time, more
# rows; a node restored from the backup and the archive to the target time,
# its clock an hour back, promoted: it has the rows before the target and
# none after, and its new values are above those it has.
$primary->backup('pitr_base');
past_copied_mark();
write_phase($primary, 'pitr_before', $rows);
sleep 0.1;
my $target = $primary->safe_psql('postgres', 'SELECT clock_timestamp()');
sleep 0.1;
write_phase($primary, 'pitr_after', $rows);
my $last_segment = $primary->safe_psql('postgres', 'SELECT pg_walfile_name(pg_switch_wal())');
$primary->poll_query_until('postgres',
	"SELECT last_archived_wal IS NOT NULL AND last_archived_wal >= '$last_segment' FROM pg_stat_archiver")
  or die 'archiving did not catch up';
my $pitr = PostgreSQL::Test::Cluster->new('pitr');
$pitr->init_from_backup($primary, 'pitr_base', has_restoring => 1, standby => 0);
setup_node($pitr);
$pitr->append_conf('postgresql.conf', qq{
recovery_target_time = '$target'
recovery_target_action = 'promote'
});
FakeClock::run_behind($pitr, '-1h', 'start');
wait_promoted($pitr);
write_phase($pitr, 'pitr_new', $rows);
check_above($pitr, 'pitr_new', 'point-in-time recovery, clock an hour back',
	pitr_before => $rows, pitr_after => 0);
$pitr->stop;

# --- 4. Failover.  A standby an hour behind; the primary writes, the
# standby replays, the primary dies; the promoted standby's values are above
# every replayed one.
my $second = new_standby($primary, 'second', 1);
past_copied_mark();
write_phase($primary, 'failover_before', $rows);
$primary->wait_for_catchup($second, 'replay', $primary->lsn('insert'));
$primary->stop('immediate');
$second->promote;
wait_promoted($second);
write_phase($second, 'failover_after', $rows);
check_above($second, 'failover_after', 'failover, standby an hour behind',
	failover_before => $rows);
# Each new primary then runs on the real clock again, which its values
# follow.
$second->restart;

# --- 5. pg_rewind and switchover.  The old primary (crashed above) is
# rewound onto the new one and follows it, two hours behind; the new
# primary stops cleanly, the old one is promoted; then back again.
rewind_and_follow($primary, $second, 'pg_rewind brings the old primary back onto the new one');
FakeClock::run_behind($primary, '-2h', 'start');
past_copied_mark();
write_phase($second, 'switchover_before', $rows);
$second->wait_for_catchup($primary, 'replay', $second->lsn('insert'));
$second->stop('fast');
$primary->promote;
wait_promoted($primary);
write_phase($primary, 'switchover_after', $rows);
check_above($primary, 'switchover_after', 'switchover to the rewound node, two hours behind',
	switchover_before => $rows, failover_after => $rows);
$primary->restart;

rewind_and_follow($second, $primary, 'pg_rewind of the node stopped cleanly');
FakeClock::run_behind($second, '-3h', 'start');
past_copied_mark();
write_phase($primary, 'back_before', $rows);
$primary->wait_for_catchup($second, 'replay', $primary->lsn('insert'));
$primary->stop('fast');
$second->promote;
wait_promoted($second);
write_phase($second, 'back_after', $rows);
check_above($second, 'back_after', 'switching back, three hours behind',
	back_before => $rows, switchover_after => $rows);
$second->restart;

# --- 6. A standby restarted before its promotion.  The primary checkpoints
# after the rows, the standby makes a restartpoint past the marks' records
# and restarts: it starts from its own mark file, which replay wrote.
my $third = new_standby($second, 'third', 4);
past_copied_mark();
write_phase($second, 'restart_before', $rows);
$second->wait_for_catchup($third, 'replay', $second->lsn('insert'));
$second->safe_psql('postgres', 'CHECKPOINT');
$second->wait_for_catchup($third, 'replay', $second->lsn('insert'));
$third->safe_psql('postgres', 'CHECKPOINT');
FakeClock::run_behind($third, '-4h', 'restart');
$third->poll_query_until('postgres', "SELECT count(*) = $rows FROM t WHERE phase = 'restart_before'")
  or die 'the restarted standby did not catch up';
$second->stop('immediate');
$third->promote;
wait_promoted($third);
write_phase($third, 'restart_after', $rows);
check_above($third, 'restart_after', 'standby restarted after a restartpoint, then promoted',
	restart_before => $rows);
$third->restart;

# --- 7. A base backup taken while pgbench writes: recovery starts at the
# backup's checkpoint; the standby made from it is promoted after catching
# up, its clock five hours back.
my $script = $third->basedir . '/load.sql';
append_to_file($script, "INSERT INTO t (phase, v6, v7, v8) SELECT 'load', uuid_generate_v6(), uuid_generate_v7(), uuid_generate_v8() FROM generate_series(1, 10);\n");
my $load = IPC::Run::start(
	[ 'pgbench', '--no-vacuum', '--client' => 2, '--time' => 5, '--file' => $script,
	  $third->connstr('postgres') ],
	'>' => \my $load_out, '2>' => \my $load_err);
sleep 1;
my $fourth = new_standby($third, 'fourth', 5);
$load->finish;
is($load->result(0), 0, 'pgbench load during the base backup ran') or diag($load_err);
$third->wait_for_catchup($fourth, 'replay', $third->lsn('insert'));
my $loaded = $third->safe_psql('postgres', "SELECT count(*) FROM t WHERE phase = 'load'");
ok($loaded > 0, "pgbench wrote $loaded rows");
$third->stop('immediate');
$fourth->promote;
wait_promoted($fourth);
write_phase($fourth, 'backup_after', $rows);
check_above($fourth, 'backup_after', 'standby from a base backup taken under load, promoted',
	load => $loaded);

# --- 8. A standby whose mark file cannot be written stops its replay,
# though its worker runs (the worker would write the same file in the same
# directory), as it stops where it cannot write a file of PostgreSQL's
# own, so that no restartpoint passes a mark the file lacks; started once
# the file can be written, it replays the mark.  Before 1.5.2 the replay
# went on with a WARNING: a restartpoint past the marks, a crash, and the
# standby started from its old file, promoted, made keys below rows it
# held.  The file is made unwritable three ways: a read-only data
# directory, a directory in place of the new file, and a leftover new file
# without write permission, the last in the adversary's steps (issue 54).
my $fifth = new_standby($fourth, 'fifth', 6);
$fifth->poll_query_until('postgres', 'SELECT worker_running FROM uuidx_mark_status()')
  or die "the standby's worker did not start";
my $tmp = $fifth->data_dir . '/uuidx.hwm.tmp';

# Has the standby's postmaster ended (within the usual wait)?
sub ended
{
	my ($node, $pid) = @_;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	sleep 0.1 while kill(0, $pid) && time < $deadline;
	$node->_update_pid(-1);
	return !kill(0, $pid);
}

# Move a node's generators past its mark and its clock (this node's run
# ahead of its clock, on marks made on the real one): a record of the mark
# in WAL.  Returns the mark, in Unix us.
sub advance_past_mark
{
	my ($node, $interval) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT uuidx_generator_advance(greatest(now(), reserved_until) + interval '$interval')
		FROM uuidx_generator_state() WHERE generator = 'v7';
		SELECT (extract(epoch FROM reserved_until) * 1000000)::bigint
		FROM uuidx_generator_state() WHERE generator = 'v7'});
}

# The standby's mark, in its file and in its memory (Unix us).
sub standby_marks
{
	my ($node) = @_;
	my ($file) = slurp_file($node->data_dir . '/uuidx.hwm') =~ /unix_us=(\d+)/;
	return ($file, $node->safe_psql('postgres', q{
		SELECT (extract(epoch FROM reserved_until) * 1000000)::bigint
		FROM uuidx_generator_state() WHERE generator = 'v7'}));
}

# Break the file, have the primary move its mark (a record), and see the
# standby stop with the failing call and uuidx's error; mend it, start the
# standby: it replays the mark into its file.
sub unwritable
{
	my ($way, $break, $mend) = @_;
	my ($pid) = slurp_file($fifth->data_dir . '/postmaster.pid') =~ /^(\d+)/;
	my $log_at = -s $fifth->logfile;
	$break->();
	my ($mark) = advance_past_mark($fourth, '10 seconds') =~ /(\d+)$/;
	my $stopped = ended($fifth, $pid);
	ok($stopped, "$way: the standby stops its replay, though its worker runs");
	unless ($stopped)
	{
		# (before 1.5.2 it went on; a read-only directory keeps pg_ctl's
		# stop waiting for the pid file to go)
		$fifth->kill9;
		sleep 0.1 while kill 0, $pid;
	}
	like(slurp_file($fifth->logfile, $log_at),
		qr/WARNING:  could not [^\n]*"uuidx\.hwm[^\n]*\n(.*\n)*?.*(ERROR|FATAL):  could not write the high-water mark replayed from WAL to "uuidx\.hwm"/,
		"$way: the log has the failing call and uuidx's error");
	$mend->();
	FakeClock::run_behind($fifth, '-6h', 'start');
	$fourth->wait_for_catchup($fifth, 'replay', $fourth->lsn('insert'));
	my ($file, $memory) = standby_marks($fifth);
	ok($file == $memory && $file >= $mark,
		"$way: started again, it replayed the mark into its file ($file, $memory >= $mark)");
}

unwritable('a read-only data directory',
	sub { chmod 0500, $fifth->data_dir or die $! },
	sub { chmod 0700, $fifth->data_dir or die $! });
unwritable('a directory in place of the new file',
	sub { mkdir $tmp or die "$tmp: $!" },
	sub { rmdir $tmp or die "$tmp: $!" });

# The adversary's steps: rows, the leftover file, a mark past the
# standby's file and rows under it, the primary's marks out of WAL (its
# worker then writes no record the standby could replay after a restart);
# checkpoints on both (had the standby gone on, its restartpoint would pass
# the marks it could not write, and a crash follow); the leftover removed,
# the standby started and promoted: its keys lie above every row it holds.
write_phase($fourth, 'leftover_before', $rows);
$fourth->wait_for_catchup($fifth, 'replay', $fourth->lsn('insert'));
my ($pid) = slurp_file($fifth->data_dir . '/postmaster.pid') =~ /^(\d+)/;
open my $fh, '>', $tmp or die "$tmp: $!";
close $fh;
chmod 0400, $tmp or die $!;
advance_past_mark($fourth, '10 seconds');
write_phase($fourth, 'leftover_after', $rows);
$fourth->adjust_conf('postgresql.conf', 'uuidx.wal_log_mark', 'off');
$fourth->reload;
$fourth->poll_query_until('postgres', 'SELECT NOT bool_or(wal_logged) FROM uuidx_generator_state()')
  or die 'the primary still writes its marks to WAL';
$fourth->safe_psql('postgres', 'CHECKPOINT');
my $stopped = ended($fifth, $pid);
ok($stopped, 'a leftover file without write permission: the standby stops its replay');
unless ($stopped)
{
	$fourth->wait_for_catchup($fifth, 'replay', $fourth->lsn('insert'));
	$fifth->safe_psql('postgres', 'CHECKPOINT');
	$fifth->kill9;
	sleep 0.1 while kill 0, $pid;
}
unlink $tmp or die "$tmp: $!";
FakeClock::run_behind($fifth, '-6h', 'start');
$fourth->wait_for_catchup($fifth, 'replay', $fourth->lsn('insert'));
$fifth->promote;
wait_promoted($fifth);
write_phase($fifth, 'leftover_new', $rows);
check_above($fifth, 'leftover_new', 'a standby that could not write its mark, then promoted',
	leftover_before => $rows, leftover_after => $rows);

$fifth->stop;
$fourth->stop;
done_testing();
