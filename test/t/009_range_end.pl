# The end of the timestamp range: a generator whose state holds the greatest
# time its version can encode refuses to generate (an ERROR naming the
# generator, SQLSTATE 22008) rather than wrapping around to small values.
# The state is put there through the high-water mark file, the one input
# from outside the server; a mark beyond any reachable time is rejected as
# corrupt, and a mark file that cannot be opened or read is reported, and
# a value that the mark cannot cover is refused without moving the
# generator.  A clock beyond the end of v6 (5236 AD, under libfaketime) is
# an error of its own that says so, and the mark it leaves does not stop v6
# after a restart.  In the last second of v7 the mark written is one the
# next start accepts.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use FakeClock;

my $node = PostgreSQL::Test::Cluster->new('range_end');
$node->init;
# In UTC, so the years read back are the clock's.
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'\ntimezone = 'UTC'");
my $clock = FakeClock->new($node);
$clock->run($node, 'start');
$node->safe_psql('postgres', 'CREATE EXTENSION uuidx; SELECT uuid_generate_v7()');
my $hwm = $node->data_dir . '/uuidx.hwm';
ok(-f $hwm, 'mark file written');

sub restart_with_mark
{
	my ($us) = @_;
	$node->stop;
	open my $fh, '>', $hwm or die $!;
	print $fh "uuidx high-water mark v1 unix_us=$us\n";
	close $fh;
	$clock->run($node, 'start');
}

# The last millisecond of UUIDv7 (10889-08-02 05:31:50.655 UTC); v6 ends
# earlier still (5236 AD).
restart_with_mark(((2**48) - 1) * 1000);
for my $gen ('uuid_generate_v6()', 'uuid_generate_v7()', 'uuid_generate_v8()', "uuid_generate_v7(interval '-1 day')")
{
	my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nSELECT $gen");
	isnt($ret, 0, "$gen at the end of the range: fails");
	like($err, qr/ERROR:  22008: the v[678] generator has reached the end of its timestamp range\nDETAIL:  The last value generated holds the greatest time/,
		"$gen at the end of the range: 22008, naming the generator, the last value at the end");
	like($err, qr/HINT:  If the clock was wrong, .*remove "uuidx\.hwm"/,
		"$gen at the end of the range: the hint says how to recover");
}
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'server still accepts queries');

# 1.0 wrote version 1 marks up to a second past the end of v7 (the window
# added without a limit): read as "at the end", not discarded.
my $offset = -s $node->logfile;
restart_with_mark((2**48) * 1000 - 1 + 500_000);
unlike(substr(slurp_file($node->logfile), $offset), qr/high-water mark/,
	'a version 1 mark half a second past the end of v7 is accepted');
my ($r1, $o1, $e1) = $node->psql('postgres', 'SELECT uuid_generate_v7()');
like($e1, qr/the v7 generator has reached the end of its timestamp range\nDETAIL:  The last value generated holds/,
	'and holds v7 at the end of its range');

# A mark no generator can reach is corrupt: ignored with a WARNING.
$offset = -s $node->logfile;
restart_with_mark('9223372036854775807');
like(substr(slurp_file($node->logfile), $offset), qr/WARNING:  ignoring invalid high-water mark file "uuidx\.hwm"/,
	'a mark beyond the range is reported as invalid');
is($node->safe_psql('postgres', 'SELECT uuid_version(uuid_generate_v7()) = 7 AND uuid_timestamp(uuid_generate_v7()) > now() - interval \'1 minute\''),
	't', 'and generation goes on from the clock');

# A mark file the server cannot open, or cannot read (a directory in its
# place): reported at startup; values are then refused until the mark can
# be written (a new file renamed over this one, which is fsync'ed first),
# since none could be covered by it.
for my $case (['open', 'without read permission', sub { chmod 0000, $hwm or die $! }, sub { chmod 0600, $hwm or die $! }],
	['read', 'replaced by a directory', sub { unlink $hwm or die $!; mkdir $hwm or die $! }, sub { rmdir $hwm or die $! }])
{
	my ($what, $how, $break, $mend) = @$case;
	$node->stop;
	$break->();
	$offset = -s $node->logfile;
	$clock->run($node, 'start');
	like(substr(slurp_file($node->logfile), $offset),
		qr/WARNING:  could not $what file "uuidx\.hwm": \w.*\n.*DETAIL:  Values generated after this restart are ordered after earlier ones only if the clock is\./,
		"mark file $how: WARNING at startup, could not $what file, with the cause");
	my ($ret, $out, $err) = $node->psql('postgres', 'SELECT uuid_generate_v7()');
	like($err, qr/ERROR:  could not open file "uuidx\.hwm": \w.*\nCONTEXT:  writing the high-water mark file "uuidx\.hwm"/,
		"mark file $how: no value is handed out uncovered; the error names the failing call");
	is($node->safe_psql('postgres', q{SELECT last_time IS NULL FROM uuidx_generator_state() WHERE generator = 'v7'}),
		't', "mark file $how: the refused value did not move the generator");
	$mend->();
	is($node->safe_psql('postgres', 'SELECT uuid_version(uuid_generate_v7())'), '7',
		"mark file $how, then mended: generation works again");
}

# A clock beyond the last v6 tick (5236-03-31 21:21:00.684697+00): v6
# refuses with its own detail, while v7, which reaches 10889 AD, goes on.
my $v6_before = $node->safe_psql('postgres', 'SELECT uuid_generate_v6()');
$clock->set('5237-01-01 00:00:00');
my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nSELECT uuid_generate_v6()");
like($err, qr/ERROR:  22008: the v6 generator has reached the end of its timestamp range\nDETAIL:  The clock is beyond the greatest time this UUID version can encode\.\nHINT:  Check the server's clock\./,
	'clock in 5237: uuid_generate_v6() fails with 22008, saying the clock is beyond its range');
is($node->safe_psql('postgres', 'SELECT extract(year FROM uuid_timestamp(uuid_generate_v7()))'), '5237',
	'clock in 5237: uuid_generate_v7() goes on');
like(slurp_file($hwm), qr/^uuidx high-water mark v2 unix_us=\d+ v6_unix_us=\d+\n/, 'the mark file holds both marks');

# The clock back, a restart: the mark v7 left in 5237 holds v7 there, but
# not v6, which never went beyond the clock of now.
$clock->set('+0');
$clock->run($node, 'restart');
is($node->safe_psql('postgres', qq{SELECT uuid_generate_v6() > '$v6_before'}), 't',
	'after a v7 value in 5237 and a restart, uuid_generate_v6() works and follows its last value');
is($node->safe_psql('postgres', q{
	SELECT string_agg(generator || ':' || extract(year FROM last_time), ' ' ORDER BY generator)
	FROM uuidx_generator_state()}), 'v6:' . ((gmtime)[5] + 1900) . ' v7:5237 v8:5237',
	'uuidx_generator_state(): v6 at the clock, v7 and v8 held in 5237 by the mark');
$node->stop;
unlink $hwm or die $!;
$clock->run($node, 'start');
# Beyond the last v7 millisecond (10889-08-02 05:31:50.655+00) v7 and v8
# refuse too: their 48-bit millisecond would otherwise wrap to 1970.
# (libfaketime reads four-digit years only: the clock is set 30 days past
# that end as an offset in seconds.)
$clock->set(sprintf('+%d', int(2**48 / 1000) + 30 * 86400 - int(time)));
is($node->safe_psql('postgres', 'SELECT extract(year FROM clock_timestamp())'), '10889',
	'clock moved past the end of v7');
for my $gen (qw(v7 v8))
{
	($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nSELECT uuid_generate_$gen()");
	like($err, qr/ERROR:  22008: the $gen generator has reached the end of its timestamp range\nDETAIL:  The clock is beyond/,
		"clock past the end of v7: uuid_generate_$gen() fails with 22008, saying the clock is beyond its range");
}
$clock->set('+0');

# The last second of v7: a value generated in it moves the mark to the end
# (a second ahead would lie beyond it), and the next start reads that
# mark.  With the clock back to now, v7 then stays above the value: at the
# end of its range, it refuses.  Before, the mark was written past the end,
# the next start discarded it, and v7 went back to the clock.
my $end_s = int(2**48 / 1000);    # 281474976710; the end is 0.655 s later
# The value is made 0.996 s before the end: the clock is set a few seconds
# before then, and the session itself waits for that time (pg_sleep(), on
# the server's clock) and makes the value at once, no round trip between.
# Should the clock be past the end by then (a session slower to start than
# the lead, or held for most of a second), the value is refused: try again
# with twice the lead.
my $from = sprintf('%d.66', $end_s - 1);
$node->safe_psql('postgres', q{
	CREATE FUNCTION v7_from(t timestamptz) RETURNS uuid LANGUAGE plpgsql AS $$
	BEGIN PERFORM pg_sleep(extract(epoch FROM t - clock_timestamp())); RETURN uuid_generate_v7(); END $$});
my $last_before;
my $lead = 2;
my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
for (my $try = 1; time < $deadline; $try++, $lead *= 2)
{
	$clock->set(sprintf('+%d', int($from - $lead) - int(Time::HiRes::time())));
	my ($r, $o, $e) = $node->psql('postgres', "SELECT v7_from(to_timestamp($from))");
	if ($r == 0) { $last_before = $o; last; }
	die "unexpected: $e" unless $e =~ /The clock is beyond/;
	note "try $try: the clock passed the end of v7 first";
}
$clock->set('+0');
ok(defined $last_before, 'a v7 value generated in the last second of the range');
my ($mark) = slurp_file($hwm) =~ /unix_us=(\d+)/;
is($mark, (2**48) * 1000 - 1, 'a value in the last second of v7: the mark is the last microsecond of v7');
$offset = -s $node->logfile;
$clock->run($node, 'restart');
unlike(substr(slurp_file($node->logfile), $offset), qr/high-water mark/, 'the next start accepts that mark');
($ret, $out, $err) = $node->psql('postgres', "SELECT uuid_generate_v7() > '$last_before'");
like($err, qr/ERROR:  the v7 generator has reached the end of its timestamp range\nDETAIL:  The last value generated holds/,
	'with the clock back, v7 is held at the end of its range instead of going back to the clock');
is($node->safe_psql('postgres', 'SELECT uuid_version(uuid_generate_v6())'), '6', 'and v6 goes on');

$node->stop;
done_testing();
