# Clock faults on a real server under libfaketime: the clock steps back an
# hour, freezes, stalls through a long burst, and jumps forward.  Every
# generator stays strictly increasing and unique, runs ahead of the clock
# only as far as needed, reports how far, and rejoins the clock when the
# clock catches up.
use strict;
use warnings FATAL => 'all';
use Time::HiRes qw(time sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FakeClock;
use ValueLog;

# The burst in a frozen millisecond: six times the counter's room, so that
# the generators run milliseconds ahead (make soak runs 2,000,000).
my $burst = $ENV{UUIDX_FROZEN_BURST} // 200_000;

my $node = PostgreSQL::Test::Cluster->new('faketime');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
my $clock = FakeClock->new($node);
$clock->run($node, 'start');
ValueLog::create($node);

sub ahead_ms
{
	my ($gen) = @_;
	return $node->safe_psql('postgres',
		"SELECT extract(epoch FROM ahead) * 1000 FROM uuidx_generator_state() WHERE generator = '$gen'");
}

sub phase_times
{
	my ($phase) = @_;
	return split /\|/, $node->safe_psql('postgres', qq{
		SELECT extract(epoch FROM min(uuid_timestamp(u7))), extract(epoch FROM max(uuid_timestamp(u7))),
		       extract(epoch FROM min(uuid_timestamp(u6))), extract(epoch FROM max(uuid_timestamp(u6)))
		FROM log WHERE phase = '$phase'});
}

# Whether a time read from values lies between two readings of the clock
# taken around their generation (a millisecond under the first for v7's
# truncated time): bounds that a slow machine only widens.  Fails if the
# values took their time from anything but the clock meanwhile.
sub between
{
	my ($t, $before, $after) = @_;
	return $t >= $before - 0.001 && $t <= $after;
}

# 1. The real clock.
my $t_real = time;
$node->safe_psql('postgres', "SELECT gen('real', 10000)");
my ($r_min7, $r_max7) = phase_times('real');
ok(between($r_min7, $t_real, time) && between($r_max7, $t_real, time),
	'real clock: v7 time is the clock at generation');

# 2. A frozen clock, one second after now: at least 32,768 v7 values share
# the frozen millisecond before the embedded time moves on.
my $frozen = int(time) + 1;
$clock->set(FakeClock::utc($frozen));
$node->safe_psql('postgres', "SELECT gen('frozen32k', 32768)");
my ($f_min7, $f_max7) = phase_times('frozen32k');
is(sprintf('%.3f', $f_max7), sprintf('%.3f', $frozen), '32,768 v7 values inside the frozen millisecond');
# Inside that millisecond the 16-bit counter (bits 52-63 and 66-69) counts
# up by exactly one from value to value, for v7 and v8 alike.
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FILTER (WHERE c7 <> p7 + 1), count(*) FILTER (WHERE c8 <> p8 + 1), count(*)
	FROM (SELECT c7, lag(c7) OVER (ORDER BY seq) p7, c8, lag(c8) OVER (ORDER BY seq) p8
	      FROM (SELECT seq,
	                   ((get_byte(uuid_send(u7), 6) & 15) << 12) | (get_byte(uuid_send(u7), 7) << 4)
	                   | ((get_byte(uuid_send(u7), 8) >> 2) & 15) AS c7,
	                   ((get_byte(uuid_send(u8), 6) & 15) << 12) | (get_byte(uuid_send(u8), 7) << 4)
	                   | ((get_byte(uuid_send(u8), 8) >> 2) & 15) AS c8
	            FROM log WHERE phase = 'frozen32k') c) s
	WHERE p7 IS NOT NULL}),
	'0|0|32767',
	'frozen millisecond: the counter adds one per value');

# 3. A long burst in that frozen millisecond: the generators run ahead, only
# as far as needed (v7/v8: at most one ms per 32,768 values; v6: 100 ns per
# value), and report it.
my $t0 = time;
$node->safe_psql('postgres', "SELECT gen('burst', $burst)");
my $burst_secs = time - $t0;
my ($b_min7, $b_max7, $b_min6, $b_max6) = phase_times('burst');
my $ahead7 = ahead_ms('v7');
my $ahead6 = ahead_ms('v6');
my $ahead8 = ahead_ms('v8');
my $max_ahead7 = ($burst + 32768) / 32768 + 1;
my $max_ahead6 = ($burst + 32768) * 0.0001 + 1;
ok($ahead7 > 0 && $ahead7 <= $max_ahead7, "burst of $burst: v7 runs ahead by $ahead7 ms (<= $max_ahead7)");
ok($ahead8 > 0 && $ahead8 <= $max_ahead7, "burst of $burst: v8 runs ahead by $ahead8 ms (<= $max_ahead7)");
ok($ahead6 > 0 && $ahead6 <= $max_ahead6, "burst of $burst: v6 runs ahead by $ahead6 ms (<= $max_ahead6)");
note "burst of $burst values in a frozen millisecond took $burst_secs s";

# 4. Back to the real clock: once it has passed the run-ahead, the
# generators follow it again.
$clock->set('+0');
sleep(0.1) while time < $frozen + 1;
my $t_rejoin = time;
$node->safe_psql('postgres', "SELECT gen('rejoin', 1000)");
my ($j_min7, $j_max7) = phase_times('rejoin');
ok(between($j_min7, $t_rejoin, time) && between($j_max7, $t_rejoin, time),
	'real clock again: v7 time is the clock');
ok(ahead_ms('v7') == 0 && ahead_ms('v6') == 0 && ahead_ms('v8') == 0, 'rejoined: nothing ahead of the clock');

# 5. The clock steps back an hour, then freezes there while generating.
# The last value is still the rejoin phase's (11,000 values move it by a
# millisecond at most), read by a clock an hour behind at most as long
# after $t_rejoin as the reading took: at most an hour ahead (and the
# millisecond), at least an hour less that time.  Fails if the step back
# is not reported, or reported as anything but the hour.
$clock->set('-1h');
$node->safe_psql('postgres', "SELECT gen('back', 10000)");
my $back_ahead = ahead_ms('v7');
my $back_elapsed_ms = (time - $t_rejoin) * 1000;
ok($back_ahead <= 3600_000 + 2 && $back_ahead >= 3600_000 - $back_elapsed_ms - 2,
	sprintf('clock stepped back an hour: v7 reports running %s ms ahead (an hour less at most the %.0f ms since the values)',
		$back_ahead, $back_elapsed_ms));
$clock->set(FakeClock::utc(time - 3600));
$node->safe_psql('postgres', "SELECT gen('back_frozen', 100000)");
my ($bf_min7, $bf_max7) = phase_times('back_frozen');
ok($bf_max7 < time + 2, 'stepped back and frozen: v7 time stays near the real last value');

# 6. The clock jumps an hour forward: values follow it.
$clock->set('+1h');
my $t_forward = time;
$node->safe_psql('postgres', "SELECT gen('forward', 10000)");
my ($fw_min7, $fw_max7, $fw_min6, $fw_max6) = phase_times('forward');
ok(between($fw_min7 - 3600, $t_forward, time) && between($fw_min6 - 3600, $t_forward, time),
	'clock jumped an hour forward: values follow it');
ok(ahead_ms('v7') == 0, 'jumped forward: nothing ahead of the clock');

# Over every phase: strictly increasing in generation order, and unique.
my $order = ValueLog::order($node);
my $n = $order->{n};
my $expected = 10000 + 32768 + $burst + 1000 + 10000 + 100000 + 10000;
is($n, $expected, "all $expected rows generated");
is($order->{distinct}, "$n $n $n", 'every value of every generator unique');
is($order->{not_increasing}, '0 0 0', 'every generator strictly increasing through every clock fault');

$node->stop;
done_testing();
