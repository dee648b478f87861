# make soak (not part of CI): sql/time_range_random.sql, the random
# differential test of time queries, at length.  The suites run it with
# its own seed and 20 random ranges and compare everything it prints;
# here it runs with a new seed (UUIDX_RANDOM_SEED, a number from -1 to 1,
# printed) and UUIDX_RANDOM_RANGES ranges (200 by default), so its counts
# differ from run to run: only the mismatches are read.  Every "mismatches"
# column is 0, no mismatch is reported, no hidden row leaked, and the file
# ran to its end without an error.
use strict;
use warnings FATAL => 'all';
use Cwd qw(getcwd);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $seed = $ENV{UUIDX_RANDOM_SEED} // sprintf('%.6f', (time % 2_000_000) / 1_000_000 - 1);
my $ranges = $ENV{UUIDX_RANDOM_RANGES} // 200;
die "UUIDX_RANDOM_SEED must be a number from -1 to 1, not $seed"
  unless $seed =~ /^-?[0-9.]+$/ && abs($seed) <= 1;
# (the fixed ranges are numbered from 1001)
die "UUIDX_RANDOM_RANGES must be a whole number from 1 to 1000, not $ranges"
  unless $ranges =~ /^[1-9][0-9]*$/ && $ranges <= 1000;
diag("seed $seed, $ranges random ranges (UUIDX_RANDOM_SEED=$seed repeats this run)");

my $node = PostgreSQL::Test::Cluster->new('time_range_random');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
$node->start;
$node->safe_psql('postgres', q{
	CREATE DATABASE random_soak TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C';
	ALTER DATABASE random_soak SET lc_messages TO 'C'});
$node->safe_psql('random_soak', 'CREATE EXTENSION uuidx');

# (unaligned, so that each table's columns are found by their header)
my $srcdir = getcwd();
local $ENV{PG_ABS_SRCDIR} = $srcdir;
my ($out, $err) = ('', '');
my $ok = IPC::Run::run [
	'psql', '-X', '-A', '-F', '|', '-v', 'ON_ERROR_STOP=1', '-v', "random_seed=$seed",
	'-v', "random_ranges=$ranges", '-d', $node->connstr('random_soak'),
	'-f', "$srcdir/sql/time_range_random.sql" ], '>', \$out, '2>', \$err;
ok($ok, 'the file ran to its end') or diag($err);
unlike($err, qr/mismatch/, 'no mismatch reported') or diag($err);

# Every table with a "mismatches" column: each row's is 0.
my ($tables, $rows, @bad) = (0, 0);
my $column;
for my $line (split /\n/, $out)
{
	my @fields = split /\|/, $line, -1;
	if (grep { $_ eq 'mismatches' } @fields)
	{
		($column) = grep { $fields[$_] eq 'mismatches' } 0 .. $#fields;
		$tables++;
		next;
	}
	if ($line =~ /^\(\d+ rows?\)$/)
	{
		undef $column;
		next;
	}
	next unless defined $column && @fields > $column;
	$rows++;
	push @bad, $line if $fields[$column] ne '0';
}
cmp_ok($tables, '>=', 5, "the tables of checks were printed ($tables, $rows rows)");
is(join("\n", @bad), '', 'every row of checks has 0 mismatches');
my ($leaked) = $out =~ /^hidden_rows_leaked\n(\d+)$/m;
is($leaked, '0', 'no hidden row leaked');

$node->stop;
done_testing();
