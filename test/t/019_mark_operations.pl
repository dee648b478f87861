# The mark in operations (issue 38): what a reload of uuidx.wal_log_mark
# and synchronous replication do to the promise that a promoted standby
# starts above every value its old primary handed out.
#
#  1. A statement that runs across the reload that turns uuidx.wal_log_mark
#     on: once any session shows the setting on, the statement's next value
#     is covered by a mark record, though the statement's own session reads
#     the configuration only when it ends.  Then failover to a standby an
#     hour behind: every new key is above every replayed one.
#  2. Synchronous replication with the walsender stopped (SIGSTOP): once
#     the reservation is used up, a bare SELECT's value waits for the
#     standby, and a cancel is an ERROR rather than a value handed out
#     uncovered.  uuidx_generator_advance() waits as a commit does, and a
#     canceled wait ends as a commit's: a WARNING, the move standing, also
#     after a restart (two advances at once wait for one record), and the
#     values beyond the mark the standby has still waiting.  Emptying
#     synchronous_standby_names releases a waiting advance.  With the
#     walsender running again, the advance returns; after failover to the
#     standby (two hours behind), every new key is above the advanced one.
#     The node runs on the real clock here, so that its values follow the
#     clock and need the mark to move every second.
#  3. Removal, as docs/guarantees.md says it: the setting off, a CHECKPOINT, the
#     LSN then, every slot's restart_lsn past it, a restart without uuidx.
#     A logical slot that followed decodes on; one left behind the last
#     mark record fails with core's error, which is why the procedure
#     waits.  pg_waldump shows the record by number only.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use List::Util qw(max);
use Time::HiRes qw(time sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FakeClock;

sub setup_node
{
	my ($node, $setting) = @_;
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uuidx'
uuidx.wal_log_mark = $setting
});
}

# A standby of $primary from a new base backup, its clock $behind hours back.
sub new_standby
{
	my ($primary, $name, $behind) = @_;
	$primary->backup("b_$name");
	my $standby = PostgreSQL::Test::Cluster->new($name);
	$standby->init_from_backup($primary, "b_$name", has_streaming => 1);
	FakeClock::run_behind($standby, "-${behind}h", 'start');
	# The mark file the base backup copied (none where no value was made
	# before it) covers the next second at most: once the clock has passed
	# it, values the standby must be above lie beyond it, and only the marks
	# in WAL can cover them.
	my $copied = $primary->backup_dir . "/b_$name/uuidx.hwm";
	my $mark_us = -f $copied ? max(slurp_file($copied) =~ /unix_us=(\d+)/g) // die "no mark in $copied" : 0;
	sleep 0.05 while time * 1_000_000 <= $mark_us;
	return $standby;
}

# uuidx_generator_advance(now() + $ahead) in a session of its own, in the
# background, under statement_timeout $timeout: its harness, to finish().
sub start_advance
{
	my ($node, $timeout, $ahead, $out, $err) = @_;
	return IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $node->connstr('postgres'),
		  '-c', "SET statement_timeout = '$timeout'",
		  '-c', "SELECT uuidx_generator_advance(now() + interval '$ahead') > now()" ],
		'>', $out, '2>', $err);
}

# Promote $standby after $primary stops with -m immediate, once it has
# replayed everything; then: how many of 1,000 new v7 keys are at or below
# the greatest key it holds.
sub failover_below
{
	my ($primary, $standby) = @_;
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	$primary->stop('immediate');
	$standby->promote;
	$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die 'timed out waiting for the promotion';
	return $standby->safe_psql('postgres', q{
		WITH n AS (SELECT uuid_generate_v7() AS id FROM generate_series(1, 1000))
		SELECT count(*) FILTER (WHERE n.id <= m.id) || ' of ' || count(*)
		FROM n, (SELECT max(id) AS id FROM t) m});
}

# --- 1. The reload, across a statement.
my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
setup_node($primary, 'off');
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE TABLE t (seq bigserial PRIMARY KEY, id uuid, at timestamptz);
	CREATE TABLE go ();
	-- One statement: a row a millisecond, until 1,000 rows after a row in
	-- go (each query of the function sees what was committed before it).
	CREATE FUNCTION long_insert() RETURNS void LANGUAGE plpgsql AS $$
	DECLARE after_go integer := 0;
	BEGIN
	  WHILE after_go < 1000 LOOP
	    IF after_go > 0 OR EXISTS (SELECT FROM go) THEN after_go := after_go + 1; END IF;
	    INSERT INTO t (id, at) VALUES (uuid_generate_v7(), clock_timestamp());
	    PERFORM pg_sleep(0.001);
	  END LOOP;
	END $$});
my $standby = new_standby($primary, 'standby', 1);

# One statement that makes rows until told, 1,000 rows after: the setting
# is turned on once it has made values (its sequence has moved, which other
# sessions see before its commit), and it is told to end only once a new
# session shows the setting on.
my ($out, $err) = ('', '');
my $long = IPC::Run::start(
	[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $primary->connstr('postgres'),
	  '-c', 'SELECT long_insert()' ],
	'>', \$out, '2>', \$err);
$primary->poll_query_until('postgres', 'SELECT is_called FROM t_seq_seq')
  or die 'the long statement made no value';
$primary->adjust_conf('postgresql.conf', 'uuidx.wal_log_mark', 'on');
$primary->reload;
$primary->poll_query_until('postgres', "SELECT current_setting('uuidx.wal_log_mark') = 'on'")
  or die 'the setting did not turn on';
my $on_at = $primary->safe_psql('postgres', 'SELECT clock_timestamp()');
$primary->safe_psql('postgres', 'INSERT INTO go DEFAULT VALUES');
$long->finish;
is($err, '', 'the long statement ran without error');
# (its first value came before the reload; the 1,000 it made after being
# told came after $on_at)
is($primary->safe_psql('postgres', qq{
	SELECT count(*) FILTER (WHERE at < '$on_at') > 0 AND count(*) FILTER (WHERE at > '$on_at') >= 1000 FROM t}), 't',
	'the long statement made values before the reload and after the setting showed on');
is(failover_below($primary, $standby), '0 of 1000',
	'reload across a statement, failover: no new key at or below a replayed one');

# --- 2. Synchronous replication, the walsender stopped.
my $new = $standby;
$new->stop;
setup_node($new, 'on');
$new->start;
my $sync = new_standby($new, 'sync', 2);
$new->append_conf('postgresql.conf', "synchronous_standby_names = 'sync'");
$new->reload;
$new->poll_query_until('postgres',
	"SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'sync'")
  or die 'the standby did not become synchronous';
my $walsender = $new->safe_psql('postgres',
	"SELECT pid FROM pg_stat_replication WHERE application_name = 'sync'");
$new->safe_psql('postgres', 'INSERT INTO t (id) SELECT uuid_generate_v7()');
kill 'STOP', $walsender;

# The reservation used up: a bare SELECT's value waits for the standby,
# and a cancel is an ERROR, not a value the standby does not cover.
sleep 1.2;
my ($ret, $stdout, $stderr) = $new->psql('postgres', q{
	SET statement_timeout = '2s';
	SELECT count(uuid_generate_v7()) FROM generate_series(1, 10)});
isnt($ret, 0, 'walsender stopped, reservation used up: a bare SELECT value waits, and is canceled');
like($stderr, qr/ERROR:\s+canceling statement due to statement timeout\nCONTEXT:\s+waiting for the synchronous standbys to flush the high-water mark/,
	'walsender stopped: the value was not handed out uncovered');

# Two advances at once, the second while the first waits (for the same
# record), the second in a session that asks for no standby at commit:
# the mark's wait is the server's, whatever a session's synchronous_commit.
# A canceled wait ends as a canceled commit's does: a WARNING that the
# move stands (the file and WAL have it already), and the statement's
# cancel error; values beyond the mark the standby has still wait.
# The first waits until it is canceled, once the second has ended: the two
# waits overlap whatever the machine's speed.
my ($bout, $berr) = ('', '');
my $t_first = time;
my $first = start_advance($new, "${PostgreSQL::Test::Utils::timeout_default}s", '1 hour', \$bout, \$berr);
my $waiting_advance = q{
	SELECT pid FROM pg_stat_activity
	WHERE wait_event = 'SyncRep' AND query LIKE '%uuidx_generator_advance%'};
$new->poll_query_until('postgres', "SELECT count(*) = 1 FROM ($waiting_advance) w")
  or die 'the first advance did not wait for the standby';
my $first_pid = $new->safe_psql('postgres', $waiting_advance);
my $t0 = time;
($ret, $stdout, $stderr) = $new->psql('postgres', q{
	SET statement_timeout = '2s';
	SET synchronous_commit = off;
	SELECT uuidx_generator_advance(now() + interval '30 minutes') > now()});
ok(time - $t0 >= 1.9, 'walsender stopped: uuidx_generator_advance() waits, at synchronous_commit = off too');
like($stderr, qr/WARNING:\s+canceling the wait for synchronous replication of the generators' advance\nDETAIL:\s+The generators have been advanced on this server, but the WAL record of their high-water mark might not have been replicated to the standby\.\nHINT:\s+Values beyond the mark the standbys have still wait for them\.\n(?:psql:\S+ )?ERROR:\s+canceling statement due to statement timeout\n?\z/,
	'walsender stopped: a canceled advance warns that the move stands, then ends with the cancel');
is($new->safe_psql('postgres', $waiting_advance), $first_pid,
	'walsender stopped: the first advance still waits after the second ended (their waits overlapped)');
$new->safe_psql('postgres', "SELECT pg_cancel_backend($first_pid)");
$first->finish;
like($berr, qr/WARNING:\s+canceling the wait for synchronous replication.*ERROR:\s+canceling statement due to user request/s,
	'walsender stopped: the advance waiting first, canceled, likewise');
unlike(slurp_file($new->logfile), qr/TRAP:|terminated by signal/,
	'two waits for one record: no assertion failure, no process lost');
# (the first advance's target was an hour after a clock read after $t_first;
# v7's time is whole milliseconds)
my $first_target = sprintf(q{to_timestamp(%.6f) + interval '1 hour' - interval '1 millisecond'}, $t_first);
is($new->safe_psql('postgres', qq{
	SELECT bool_and(last_time >= $first_target) FROM uuidx_generator_state()}), 't',
	'walsender stopped: the canceled advances moved the generators, as their file and WAL say');
($ret, $stdout, $stderr) = $new->psql('postgres', q{
	SET statement_timeout = '1s';
	SELECT uuid_generate_v7()});
like($stderr, qr/ERROR:\s+canceling statement due to statement timeout\nCONTEXT:\s+waiting for the synchronous standbys/,
	'walsender stopped: after the canceled advances, a value beyond the mark the standby has still waits');
kill 'CONT', $walsender;    # a stopped walsender would hold up the shutdown
$new->restart;
is($new->safe_psql('postgres', qq{
	SELECT uuid_v7_to_timestamptz(uuid_generate_v7()) >= $first_target}), 't',
	'walsender stopped: after a restart, the generators stand where the canceled advance put them');
$new->poll_query_until('postgres',
	"SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'sync'")
  or die 'the standby did not become synchronous again';
$walsender = $new->safe_psql('postgres',
	"SELECT pid FROM pg_stat_replication WHERE application_name = 'sync'");

# An operator who gives up the standby (synchronous_standby_names
# emptied, a reload) releases the waits: an advance's, though its session
# reads the configuration only between statements, and the worker's.
kill 'STOP', $walsender;
my ($cout, $cerr) = ('', '');
my $waiting = start_advance($new, "${PostgreSQL::Test::Utils::timeout_default}s", '2 hours', \$cout, \$cerr);
$new->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	WHERE wait_event = 'SyncRep' AND query LIKE '%uuidx_generator_advance%'})
  or die 'the advance did not wait for the standby';
$new->safe_psql('postgres', q{ALTER SYSTEM SET synchronous_standby_names = ''});
$new->reload;
$t0 = time;
$waiting->finish;
note sprintf('advance released %.2f s after the reload', time - $t0);
is($cout, "t\n", 'synchronous_standby_names emptied: the waiting advance returns');
is($cerr, '', 'synchronous_standby_names emptied: without a warning, its wait was not canceled');
kill 'CONT', $walsender;
$new->safe_psql('postgres', q{ALTER SYSTEM RESET synchronous_standby_names});
$new->reload;
$new->poll_query_until('postgres',
	"SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'sync'")
  or die 'the standby did not become synchronous again';

# at remote_apply, which a record without a commit does not wait for: the
# mark waits for the standbys' flush, as at on
$t0 = time;
my $stand = $new->safe_psql('postgres', qq{
	SET statement_timeout = '${PostgreSQL::Test::Utils::timeout_default}s';
	SET synchronous_commit = remote_apply;
	SELECT uuidx_generator_advance(now() + interval '3 hours')});
note sprintf('advance returned after %.2f s', time - $t0);
$new->safe_psql('postgres', q{INSERT INTO t (id) SELECT uuid_generate_v7()});
is($new->safe_psql('postgres', "SELECT uuid_v7_to_timestamptz(max(id)) > '$stand' FROM t"), 't',
	'walsender running, remote_apply: the advance returned, and the next key is past it');
is(failover_below($new, $sync), '0 of 1000',
	'advance under synchronous replication, failover: no new key at or below the advanced one');

$sync->stop;

# --- 3. Removal.
my $gone = PostgreSQL::Test::Cluster->new('removal');
$gone->init(allows_streaming => 'logical');
setup_node($gone, 'on');
$gone->start;
$gone->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE TABLE k (id uuid PRIMARY KEY DEFAULT uuid_generate_v7());
	CREATE PUBLICATION p FOR TABLE k;
	SELECT pg_create_logical_replication_slot('followed', 'pgoutput');
	SELECT pg_create_logical_replication_slot('behind', 'pgoutput')});
my $first_lsn = $gone->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
$gone->safe_psql('postgres', q{SELECT uuidx_generator_advance(now() + interval '1 minute'); INSERT INTO k DEFAULT VALUES});
my $decode = q{SELECT count(*) FROM pg_logical_slot_get_binary_changes('%s', NULL, NULL,
                  'proto_version', '1', 'publication_names', 'p')};
$gone->safe_psql('postgres', 'ALTER SYSTEM SET uuidx.wal_log_mark = off; SELECT pg_reload_conf()');
$gone->poll_query_until('postgres', q{SELECT NOT bool_or(wal_logged) FROM uuidx_generator_state()})
  or die 'the setting did not go off';
my $off_lsn = $gone->safe_psql('postgres', 'CHECKPOINT; SELECT pg_current_wal_insert_lsn()');
# the slot's consumer goes on; its restart point passes a CHECKPOINT's
# snapshot record once decoded and confirmed
my $passed = 'f';
my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
while (time < $deadline)
{
	$gone->safe_psql('postgres', sprintf($decode, 'followed') . '; CHECKPOINT');
	$passed = $gone->safe_psql('postgres', "SELECT restart_lsn >= '$off_lsn' FROM pg_replication_slots WHERE slot_name = 'followed'");
	last if $passed eq 't';
	sleep 0.2;
}
is($passed, 't', 'the followed slot passes the last mark record');
is($gone->safe_psql('postgres', "SELECT string_agg(slot_name, ',') FROM pg_replication_slots WHERE restart_lsn < '$off_lsn'"),
	'behind', "docs/guarantees.md's query names the slot still behind the last mark record");
my $waldump = `pg_waldump -p @{[$gone->data_dir]}/pg_wal -s $first_lsn -e $off_lsn 2>&1`;
like($waldump, qr/rmgr: custom167 .*desc: UNKNOWN \(0\) rmid: 167/,
	'pg_waldump shows the mark record by its number');
$gone->stop;
$gone->adjust_conf('postgresql.conf', 'shared_preload_libraries', "''");
$gone->start;
$gone->safe_psql('postgres', 'INSERT INTO k VALUES (gen_random_uuid())');
is($gone->safe_psql('postgres', sprintf($decode, 'followed')) > 0 ? 'decoded' : 'nothing',
	'decoded', 'without uuidx, the slot that passed the last mark record decodes on');
my $rc;
($rc, $out, $err) = $gone->psql('postgres', sprintf($decode, 'behind'));
like($err, qr/resource manager with ID 167 not registered/, 'the slot left behind it cannot');
$gone->stop;
done_testing();
