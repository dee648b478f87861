# Random bits are never shared between processes.  uuidx draws random bytes
# through a per-process pool.  Every backend is forked from the postmaster
# and starts with a copy of the postmaster's memory: if the pool were ever
# filled in the postmaster (say at load time in shared_preload_libraries),
# or if a forked process used bytes it inherited instead of refilling, every
# backend would hand out the same bytes in the same order, so the first
# value of every connection would carry the same random bits, and so would
# the second, and so on.
#
# Two rules prevent it, and each is put to the test on its own through the
# developer setting uuidx.debug_postmaster_random, which acts in the
# postmaster while the preloaded library is loaded:
#  - draw: the postmaster takes random bytes as any caller would.  The
#    pool must stay empty there, so no backend finds an inherited pool (the
#    server log would say "discarding ... inherited").  Fails if the
#    postmaster rule is removed.
#  - prefill: the pool is filled in the postmaster as if that rule were
#    broken.  Every backend must notice that the pool is not its own and
#    refill before using a byte.  Fails if the pid check is removed: the
#    50 connections would then share their random bits.
# In each mode 50 fresh connections each generate 20 values of v6, v7 and
# v8; no random part may repeat anywhere, least of all among the first
# values of the connections.  (Either broken rule gives every backend the
# same bytes, which two connections would show; 50 also show a rule
# broken for some backends only.)
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $connections = 50;
my $per_connection = 20;
my $node_id = 4242;    # v8 node bits fixed, so only its 42 random bits vary

my $node = PostgreSQL::Test::Cluster->new('fork_random');
$node->init;
$node->append_conf('postgresql.conf',
	"shared_preload_libraries = 'uuidx'\nuuidx.node_id = $node_id");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uuidx');
$node->stop;

# The random part of a value, as hex, from the 64 low bits (bits 64-127),
# split into two 32-bit halves to stay clear of 64-bit arithmetic.
sub low_halves
{
	my ($u) = @_;
	(my $h = $u) =~ s/-//g;
	return (hex(substr($h, 16, 8)), hex(substr($h, 24, 8)));
}
# v7: bits 70-127, 58 random bits.
sub random_v7
{
	my ($hi, $lo) = low_halves(shift);
	return sprintf('%07x%08x', $hi & 0x03FFFFFF, $lo);
}
# v6: clock_seq and node, bits 66-127 (random, but for the multicast bit).
sub random_v6
{
	my ($hi, $lo) = low_halves(shift);
	return sprintf('%08x%08x', $hi & 0x3FFFFFFF, $lo);
}
# v8: bits 86-127, 42 random bits; and the node id, bits 70-85.
sub random_v8
{
	my ($hi, $lo) = low_halves(shift);
	return sprintf('%03x%08x', $hi & 0x3FF, $lo);
}
sub node_v8
{
	my ($hi, $lo) = low_halves(shift);
	return ($hi >> 10) & 0xFFFF;
}

for my $mode (qw(draw prefill))
{
	$node->append_conf('postgresql.conf', "uuidx.debug_postmaster_random = $mode");
	my $log_offset = -s $node->logfile // 0;
	$node->start;
	is($node->safe_psql('postgres', 'SHOW uuidx.debug_postmaster_random'), $mode,
		"$mode: uuidx.debug_postmaster_random is in effect");
	is($node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_settings WHERE name LIKE 'uuidx.debug%'}), '0',
		"$mode: the test-only setting is not in pg_settings or SHOW ALL");

	my (%pids, %first, %all, %dups, $bad_node);
	for my $c (1 .. $connections)
	{
		# A new psql each time: a new connection, a new backend.
		my $out = $node->safe_psql('postgres', qq{
			SELECT pg_backend_pid(), n, uuid_generate_v6(), uuid_generate_v7(), uuid_generate_v8()
			FROM generate_series(1, $per_connection) n});
		for my $line (split /\n/, $out)
		{
			my ($pid, $n, $u6, $u7, $u8) = split /\|/, $line;
			$pids{$pid} = 1;
			my %r = (v6 => random_v6($u6), v7 => random_v7($u7), v8 => random_v8($u8));
			$bad_node++ if node_v8($u8) != $node_id;
			for my $g (keys %r)
			{
				$dups{$g}++ if $all{$g}{ $r{$g} }++;
				$first{$g}{ $r{$g} }++ if $n == 1;
			}
		}
	}
	my $values = $connections * $per_connection;

	is(scalar(keys %pids), $connections, "$mode: $connections connections, each its own backend");
	is($bad_node // 0, 0, "$mode: every v8 value carries node id $node_id in bits 70-85 (the layout is read right)");
	for my $g (qw(v6 v7 v8))
	{
		is(scalar(keys %{ $first{$g} }), $connections,
			"$mode: $g: the first values of the $connections connections all have distinct random bits");
		is(scalar(keys %{ $all{$g} }), $values,
			"$mode: $g: no random part repeats among all $values values (" . ($dups{$g} // 0) . ' repeats)');
	}

	$node->stop;
	my @discards = substr(slurp_file($node->logfile), $log_offset)
	  =~ /discarding (\d+) random bytes inherited from process/g;
	if ($mode eq 'draw')
	{
		is(scalar(@discards), 0,
			'draw: no backend found random bytes inherited from the postmaster (its pool stayed empty)');
	}
	else
	{
		ok(@discards >= $connections && !grep({ $_ != 8192 } @discards),
			'prefill: every backend discarded the 8192 bytes it inherited before using one ('
			  . scalar(@discards) . ' discards)');
	}
}

done_testing();
