# Order survives restarts: a clean restart, a crash of a backend (crash
# restart: the postmaster reinitializes shared memory) and a kill -9 of the
# postmaster, each with the clock set back an hour just before, start every
# generator above the persisted high-water mark (uuidx.hwm), so the first
# values afterwards are greater than every value before; with the library
# preloaded, and on PostgreSQL 17 and later again with the state in the DSM
# registry.  Also: the mark is
# reserved ahead of use within a bounded window and written about twice a
# second at most, not per value; a corrupt mark file is reported and
# replaced; a mark that cannot be written makes a value past the mark an
# ERROR, never a crash and never a value the mark does not cover.
#
# The server runs under libfaketime as in 002_clock_faults.pl; the clock is
# an offset from the real clock, or a frozen UTC time, written to a file
# the server rereads on every clock call.
use strict;
use warnings FATAL => 'all';
use Time::HiRes qw(time sleep);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FakeClock;
use ValueLog;

my $node = PostgreSQL::Test::Cluster->new('restarts');
$node->init;
# The test framework turns restart_after_crash off; the crash restart is
# what scenario b is about.
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'\nrestart_after_crash = on");
my $clock = FakeClock->new($node);
my $hwm_file = $node->data_dir . '/uuidx.hwm';

# The server log written since a given offset.
sub log_since { return slurp_file($node->logfile, shift) }

$clock->set('+0');
$clock->run($node, 'start');
ValueLog::create($node);

# Per generator: last_time, ahead and reserved_until in (fractional) Unix
# seconds, last_time and reserved_until in Unix microseconds.
sub gen_state
{
	my %s;
	for my $row (split /\n/, $node->safe_psql('postgres', q{
		SELECT generator, extract(epoch FROM last_time), extract(epoch FROM ahead),
		       extract(epoch FROM reserved_until),
		       (extract(epoch FROM last_time) * 1000000)::bigint,
		       (extract(epoch FROM reserved_until) * 1000000)::bigint,
		       (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
		FROM uuidx_generator_state() ORDER BY generator}))
	{
		my ($g, $last, $ahead, $res, $last_us, $res_us, $after_us) = split /\|/, $row;
		$s{$g} = { last => $last, ahead => $ahead, reserved => $res,
			last_us => $last_us, reserved_us => $res_us, after_us => $after_us };
	}
	return \%s;
}

# The mark in the file, in Unix microseconds (undef if absent or unparsable).
sub hwm_in_file { return (marks_in_file())[0] }

# Both marks in the file: v7 and v8's, and v6's (empty if unparsable).
sub marks_in_file
{
	open my $fh, '<', $hwm_file or return ();
	local $/;
	my $c = <$fh>;
	close $fh;
	return $c =~ /^uuidx high-water mark v2 unix_us=(\d+) v6_unix_us=(\d+)\n/ ? ($1, $2) : ();
}

# After a restart with the clock an hour back, every generator starts
# at the mark the file held before the restart (v6 at its own mark;
# last_time shows v7 and v8 to the millisecond), and so about an hour ahead of the clock: at least 59 minutes,
# leaving a minute for a slow restart.  Started from the clock instead,
# "ahead" would be 0 and last_time an hour before the mark.  (A bound on
# "ahead" alone would not do: each restart starts at a mark up to a second
# beyond the last value, so restarts in a row with no value from the real
# clock in between add up.)
sub starts_at_marks
{
	my ($s, $mark, $v6_mark) = @_;
	my @bad;
	for my $g (qw(v6 v7 v8))
	{
		my $want = $g eq 'v6' ? $v6_mark : $mark;
		my $d = $want - $s->{$g}{last_us};
		push @bad, "$g last_time $s->{$g}{last_us} us, mark $want us"
		  if $d < 0 || $d >= 1000;
		push @bad, "$g ahead $s->{$g}{ahead} s" if $s->{$g}{ahead} <= 3540;
	}
	return join '; ', @bad;
}

# The first value of each generator in a phase must be greater than every
# value logged before the phase.  If a restart started the generators from
# the clock (an hour back) instead of above the mark, this fails.
sub check_first_after
{
	my ($phase, $what) = @_;
	my $r = $node->safe_psql('postgres', qq{
		WITH f AS (SELECT * FROM log WHERE phase = '$phase' ORDER BY seq LIMIT 1)
		SELECT count(*) FILTER (WHERE l.u6 >= f.u6), count(*) FILTER (WHERE l.u7 >= f.u7),
		       count(*) FILTER (WHERE l.u8 >= f.u8), count(*)
		FROM log l, f WHERE l.seq < f.seq});
	my ($g6, $g7, $g8, $n) = split /\|/, $r;
	ok($n > 0 && "$g6 $g7 $g8" eq '0 0 0',
		"$what: first v6, v7, v8 after it are greater than all $n earlier values");
}

# After a restart with the clock set back an hour, given the marks in the
# file before it: before anything is generated, every generator starts at
# its mark, an hour ahead of the clock (fails if the state started from the
# clock); then the first values of the phase are greater than every value
# before it.
sub check_after_restart
{
	my ($phase, $what, @marks) = @_;
	die "no marks in $hwm_file before the restart" unless @marks == 2;
	my $s = gen_state();
	is(starts_at_marks($s, @marks), '',
		"$what: generators start at the marks, about an hour ahead (v7 $s->{v7}{ahead} s)");
	$node->safe_psql('postgres', "SELECT gen('$phase', 1000)");
	check_first_after($phase, $what);
}

# The mark is reserved ahead of use, a second ahead of the clock or of the
# newest value, whichever is later, when it moves: so it covers every value
# handed out (reserved_until >= last_time), and lies at most a second past
# the later of the clock read after it and the newest value of any
# generator (a millisecond more for the rounding of the figures read).
# Fails if a value were handed out beyond the mark, or if the mark were
# moved further ahead (after a restart the embedded time jumps to the mark).
# How long the worker took to move it does not matter: the clock it moved
# it by was read before the one compared with.  The file holds exactly the
# mark the server uses (read again where the mark worker moved it between
# the two reads: the pair compared is the pair read).
sub check_reservation
{
	my ($what) = @_;
	my ($s, $file);
	# the state, then the file: a pair that a move came between (the file
	# is written before the mark is published) is read again
	for (1 .. 10)
	{
		$s = gen_state();
		$file = hwm_in_file() // '';
		last if $file eq $s->{v7}{reserved_us};
		sleep 0.05;
	}
	my @bad;
	# (the real clock too: the postmaster's own log lines read it, not the
	# sessions' clock an hour back, and so may a mark worker it starts
	# again after a crash)
	my $newest = int(time * 1_000_000);
	$newest = $_->{last_us} > $newest ? $_->{last_us} : $newest for values %$s;
	for my $g (qw(v6 v7 v8))
	{
		my $later = $s->{$g}{after_us} > $newest ? $s->{$g}{after_us} : $newest;
		push @bad, "$g: reserved_until $s->{$g}{reserved_us} us below last_time $s->{$g}{last_us} us"
		  if $s->{$g}{reserved_us} < $s->{$g}{last_us};
		push @bad, sprintf('%s: reserved_until %.6f s past the later of the clocks and the newest value',
			$g, ($s->{$g}{reserved_us} - $later) / 1e6)
		  if $s->{$g}{reserved_us} > $later + 1_001_000;
	}
	is(join('; ', @bad), '', "$what: for v6, v7, v8, last_time <= reserved_until <= max(clock, newest value) + 1 s");
	is($file, $s->{v7}{reserved_us}, "$what: uuidx.hwm holds reserved_until");
}

# --- 0. Real clock: the mark exists and covers what was handed out.
$node->safe_psql('postgres', "SELECT gen('real', 10000)");
ok(-f $hwm_file, 'high-water mark file uuidx.hwm exists in the data directory');
check_reservation('real clock');

# Scenarios a, b and c, run first with the library preloaded and then, on
# PostgreSQL 17 and later, with the state in the DSM registry.  $m names
# the mode in phases and test names.

# --- a. Clean restart, the clock set back an hour before the server comes up.
sub clean_restart_clock_back
{
	my ($m) = @_;
	$clock->set('-1h');
	my @marks = marks_in_file();
	$clock->run($node, 'restart');
	check_after_restart("after_restart_$m", "$m: clean restart with the clock back an hour", @marks);
	check_reservation("$m: after clean restart, clock back 1h");
}

# --- b. A backend killed with SIGKILL: the postmaster kills the others and
# reinitializes shared memory (crash restart); the clock is set back an hour
# first.  The victim generates the last values before it is killed.
sub backend_crash_clock_back
{
	my ($m) = @_;
	$clock->set('+0');
	$node->safe_psql('postgres', "SELECT gen('before_crash_$m', 1000)");
	my ($vout, $verr) = ('', '');
	my $victim = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'),
		  '-c', "SELECT gen('victim_$m', 1000)", '-c', 'SELECT pg_sleep(600)' ],
		'>', \$vout, '2>', \$verr);
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)'")
	  or die 'victim backend not found';
	my $victim_pid = $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)'");
	$clock->set('-1h');
	my $log_offset = -s $node->logfile;
	my @marks = marks_in_file();
	kill 'KILL', $victim_pid or die "could not kill backend $victim_pid: $!";
	$victim->finish;
	# Wait for the crash restart to finish (a connection accepted before the
	# postmaster noticed the crash would not do).
	my $deadline = time + 60;
	sleep(0.1)
	  while time < $deadline
	  && log_since($log_offset) !~ /reinitializing.*database system is ready to accept connections/s;
	$node->poll_query_until('postgres', 'SELECT 1', '1')
	  or die 'server did not come back after the crash';
	like(log_since($log_offset),
		qr/terminated by signal 9.*all server processes terminated; reinitializing.*ready to accept connections/s,
		"$m: backend killed: the postmaster reinitialized shared memory (crash restart)");
	check_after_restart("after_crash_$m", "$m: crash restart (backend killed) with the clock back an hour", @marks);
	check_reservation("$m: after crash restart");
}

# --- c. kill -9 of the postmaster, the clock set back an hour, then start.
sub postmaster_kill_clock_back
{
	my ($m) = @_;
	$clock->set('+0');
	$node->safe_psql('postgres', "SELECT gen('before_kill9_$m', 1000)");
	$clock->set('-1h');
	open my $pidfh, '<', $node->data_dir . '/postmaster.pid' or die $!;
	my $pm_pid = <$pidfh>;
	close $pidfh;
	chomp $pm_pid;
	my @marks = marks_in_file();
	$node->kill9;
	sleep(0.1) while kill 0, $pm_pid;
	# The orphaned children leave once they notice the postmaster is gone;
	# until then the old shared memory is in use and a start is refused.
	my $started = 0;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	until (($started = $clock->run($node, 'start', fail_ok => 1)) || time > $deadline)
	{
		sleep(0.2);
	}
	ok($started, "$m: server starts after kill -9 of the postmaster");
	check_after_restart("after_kill9_$m", "$m: kill -9 of the postmaster with the clock back an hour", @marks);
}

clean_restart_clock_back('preload');
backend_crash_clock_back('preload');
postmaster_kill_clock_back('preload');

# --- a-c again: the same restarts with the state in the DSM registry (PostgreSQL
# 17 and later, the library not preloaded): the segment is created by the
# first backend that needs it, from the same mark file, after every kind of
# restart.  The values logged with the library preloaded are still there,
# so the first values after the switch must be greater than those too.
if ($node->pg_version >= 17)
{
	$node->stop;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = ''");
	$clock->set('-1h');
	$clock->run($node, 'start');
	is($node->safe_psql('postgres', 'SELECT DISTINCT storage FROM uuidx_generator_state()'),
		'dsm_registry', 'not preloaded: the state is in the DSM registry');
	$node->safe_psql('postgres', "SELECT gen('dsm_first', 1000)");
	check_first_after('dsm_first', 'dsm: first values, library no longer preloaded, clock back an hour');
	$clock->set('+0');
	clean_restart_clock_back('dsm');
	backend_crash_clock_back('dsm');
	postmaster_kill_clock_back('dsm');
	# Back to the preloaded library for the rest.
	$node->stop;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
	$clock->run($node, 'start');
}

# --- The mark is not written per value.  One backend generates v7 values
# for 3 s of the real clock.  The mark moves when a value comes within half
# the reservation of it (about every 0.5 s), or a quarter when the worker
# is late, so durable writes of the mark file count up a few times a
# second of the burst at most; written per value, they would count up with
# every value (hundreds of thousands).  And it moves at least twice: the
# values of the last second lie two seconds past the mark the first ones
# found.  Both are counts against the seconds that passed, which a slower
# machine makes no harder.  The server runs without libfaketime here: with
# FAKETIME_NO_CACHE every clock call rereads the clock file, which would
# make generation several times slower.
$clock->set('+0');
$node->stop;
$node->start;
$node->poll_query_until('postgres', "SELECT ahead = interval '0' FROM uuidx_generator_state() WHERE generator = 'v7'")
  or die 'the generators did not fall back to the clock';
$node->safe_psql('postgres', q{
	CREATE FUNCTION burst(secs float8) RETURNS bigint LANGUAGE plpgsql AS $$
	DECLARE n bigint := 0; stop timestamptz := clock_timestamp() + secs * interval '1 s';
	BEGIN
	  WHILE clock_timestamp() < stop LOOP
	    PERFORM count(uuid_generate_v7()) FROM generate_series(1, 50000);
	    n := n + 50000;
	  END LOOP;
	  RETURN n;
	END $$});
my $writes_before = $node->safe_psql('postgres', 'SELECT durable_writes FROM uuidx_mark_status()');
my $t0 = time;
my ($bret, $values, $gerr) = $node->psql('postgres', 'SELECT burst(3)');
my $writes = $node->safe_psql('postgres', 'SELECT durable_writes FROM uuidx_mark_status()') - $writes_before;
my $elapsed = time - $t0;    # after the count: it bounds every write counted
is("$bret $gerr", "0 ", "burst of v7 values: no error");
note "burst: $values v7 values in $elapsed s, $writes durable writes of uuidx.hwm";
ok($writes >= 2 && $writes <= 5 + 10 * $elapsed,
	"uuidx.hwm written $writes times for $values values in $elapsed s (at least 2, at most 10 a second: not per value)");

# --- d1. A corrupt mark file at startup: reported, ignored, rewritten.
$node->stop;
open my $fh, '>', $hwm_file or die $!;
print $fh "this is not a high-water mark\n\x00\xff garbage";
close $fh;
my $log_offset = -s $node->logfile;
$clock->run($node, 'start');
like(log_since($log_offset), qr/WARNING:.*ignoring invalid high-water mark file "uuidx\.hwm"/,
	'corrupt uuidx.hwm: server starts with a WARNING naming the file');
$node->safe_psql('postgres', "SELECT gen('after_corrupt', 1000)");
check_first_after('after_corrupt', 'restart over a corrupt mark (clock right)');
ok(defined hwm_in_file(), 'corrupt uuidx.hwm replaced by a valid mark once values are generated');

# --- d2. A mark the server cannot write.  The clock is frozen at a whole
# second S ten seconds ahead: the first value there lies beyond the mark,
# so the mark moves to exactly S + 1 s (S + window).  Then the file the new
# mark is written to, before it is renamed over uuidx.hwm, cannot be
# created (a directory stands in its place):
#  - at S + 1 s a value equals the mark: it is returned; the early move of
#    the mark fails with a WARNING only;
#  - at S + 2 s a value lies beyond the mark: ERROR, no crash.  Without the
#    check the value would be returned uncovered by any persisted mark.
my $S = int(time) + 10;
my $mark_S1 = sprintf('%d', ($S + 1) * 1_000_000);
my $temp_file = $node->data_dir . '/uuidx.hwm.tmp';
$clock->set(FakeClock::utc($S));
$node->safe_psql('postgres', "SELECT gen('frozen_S', 10)");
is(hwm_in_file(), $mark_S1, 'frozen at S: the mark moved to S + 1 s');
mkdir $temp_file or die $!;
$clock->set(FakeClock::utc($S + 1));
$log_offset = -s $node->logfile;
my ($ret, $out, $err) = $node->psql('postgres', "SELECT gen('at_mark', 5)");
is($ret, 0, 'mark not writable, value at the mark: returned');
# (reported by the value's early move or the worker's, whichever failed
# first: a retried write's failure is reported once per 10 s)
ok($node->wait_for_log(qr/WARNING:.*could not create file "uuidx\.hwm\.tmp": Is a directory/, $log_offset),
	'mark not writable, value at the mark: WARNING that the mark could not be moved early');
$clock->set(FakeClock::utc($S + 2));
$log_offset = -s $node->logfile;
($ret, $out, $err) = $node->psql('postgres', 'SELECT uuid_generate_v7()');
isnt($ret, 0, 'mark not writable, value beyond it: the statement fails');
like($err, qr/ERROR:\s+could not create file "uuidx\.hwm\.tmp": Is a directory\nDETAIL:  A UUID is returned only once the persisted high-water mark covers its time/,
	'mark not writable, value beyond it: ERROR names the file and the failing call, DETAIL the high-water mark');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'mark not writable: server still accepts queries');
unlike(log_since($log_offset), qr/terminated by signal|server process .* was terminated/,
	'mark not writable: no backend crashed');
is(hwm_in_file(), $mark_S1, 'mark not writable: file unchanged');
rmdir $temp_file or die $!;
($ret, $out, $err) = $node->psql('postgres', "SELECT gen('writable_again', 1000)");
is("$ret $err", '0 ', 'mark writable again: generation works without warnings');
check_first_after('writable_again', 'after the write failure');
ok(hwm_in_file() > ($S + 2) * 1_000_000, 'mark writable again: the mark moved past S + 2 s');
$clock->set('+0');

# Over everything: strictly increasing in generation order, and unique.
my $order = ValueLog::order($node);
my $n = $order->{n};
is($order->{distinct}, "$n $n $n", "all $n logged values of each generator unique");
is($order->{not_increasing}, '0 0 0', 'every generator strictly increasing through every restart and crash');

$node->stop;
done_testing();
