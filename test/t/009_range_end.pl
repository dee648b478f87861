# The end of the timestamp range: a generator whose state holds the greatest
# time its version can encode refuses to generate (an ERROR naming the
# generator, SQLSTATE 22008) rather than wrapping around to small values.
# The state is put there through the high-water mark file, the one input
# from outside the server; a mark beyond any reachable time is rejected as
# corrupt.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('range_end');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
$node->start;
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
	$node->start;
}

# The last millisecond of UUIDv7 (10889-08-02 05:31:50.655 UTC); v6 ends
# earlier still (5236 AD).
restart_with_mark(((2**48) - 1) * 1000);
for my $gen ('uuid_generate_v6()', 'uuid_generate_v7()', 'uuid_generate_v8()', "uuid_generate_v7(interval '-1 day')")
{
	my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nSELECT $gen");
	isnt($ret, 0, "$gen at the end of the range: fails");
	like($err, qr/ERROR:  22008: uuid_generate_v[678] has reached the end of its timestamp range/,
		"$gen at the end of the range: 22008, naming the generator");
}
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'server still accepts queries');

# A mark no generator can reach is corrupt: ignored with a WARNING.
my $offset = -s $node->logfile;
restart_with_mark('9223372036854775807');
like(substr(slurp_file($node->logfile), $offset), qr/WARNING:.*uuidx ignores the unreadable high-water mark file/,
	'a mark beyond the range is reported as unreadable');
is($node->safe_psql('postgres', 'SELECT uuid_version(uuid_generate_v7()) = 7 AND uuid_timestamp(uuid_generate_v7()) > now() - interval \'1 minute\''),
	't', 'and generation goes on from the clock');

$node->stop;
done_testing();
