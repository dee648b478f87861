# uuidx_core18 answers PostgreSQL 18's own regression statements for its
# functions as 18.6 does, errors word for word: every statement of 18.6's
# src/test/regress/sql/uuid.sql that calls uuidv7(), uuidv4() or
# uuid_extract_*() is in sql/core18_names.sql (but for those 15 cannot
# parse, on 15), and where 18.6's expected output has an error for it
# (ERROR, DETAIL, HINT), the expected output on 15 and on 17 has the same.
# Reads 18.6's source package from the build cache (make matrix's step
# 18-assert fetches it).
use strict;
use warnings;
use Test::More;

my $root = $ENV{UUIDX_ROOT} // '.';
my $cache = $ENV{UUIDX_PG_CACHE} // '/var/cache/uuidx-pg';
my ($orig) = glob("$cache/src/18/postgresql-18_*.orig.tar.*");
plan skip_all => "no PostgreSQL 18 source in $cache/src/18 (bash tools/build-pg.sh 18 fetches it)" unless $orig;

sub from_tarball
{
	my ($member) = @_;
	my $text = `tar -xOf '$orig' --wildcards '*/$member' 2>/dev/null`;
	die "no $member in $orig" unless length $text;
	return $text;
}

sub slurp
{
	my ($f) = @_;
	open my $h, '<', $f or die "$f: $!";
	local $/;
	return scalar <$h>;
}

# The statements of a psql output and what follows each: statement => lines.
sub blocks
{
	my ($out) = @_;
	my (%block, $stmt);
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^(SELECT|INSERT|TRUNCATE|CREATE|WITH)\b/ && $line =~ /;\s*(--.*)?$/)
		{
			$stmt = $line =~ s/\s*--.*$//r;
			$block{$stmt} //= [];
			next;
		}
		push @{ $block{$stmt} }, $line if defined $stmt && $line =~ /^(ERROR|DETAIL|HINT):/;
		undef $stmt if $line =~ /^--/;
	}
	return \%block;
}

my @ours18 = grep { /\b(uuidv7|uuidv4|uuid_extract_\w+)\s*\(/ } map { s/\s*--.*$//r }
  grep { /;\s*(--.*)?$/ } split /\n/, from_tarball('src/test/regress/sql/uuid.sql');
ok(@ours18 >= 10, scalar(@ours18) . " statements of 18.6's uuid.sql call uuidx_core18's functions");
my $core = blocks(from_tarball('src/test/regress/expected/uuid.out'));
my $sql = slurp("$root/sql/core18_names.sql");

for my $case (
	[ 17, 'core18_names_1.out', [] ],
	# 15's interval input takes no 'infinity'
	[ 15, 'core18_names.out', [ "SELECT uuidv7('infinity'::interval);", "SELECT uuidv7('-infinity'::interval);" ] ])
{
	my ($major, $file, $excepted) = @$case;
	my $ours = blocks(slurp("$root/expected/$file"));
	my (@missing, @differ);
	for my $stmt (@ours18)
	{
		next if grep { $_ eq $stmt } @$excepted;
		# (the WITH of the timestamp offsets spans lines, translated for 15)
		next if $stmt !~ /^(SELECT|INSERT)/;
		if (index($sql, $stmt) < 0 || !exists $ours->{$stmt})
		{
			push @missing, $stmt;
			next;
		}
		my ($want, $got) = (join("\n", @{ $core->{$stmt} // [] }), join("\n", @{ $ours->{$stmt} }));
		push @differ, "$stmt\n  18.6: $want\n  ours: $got" if $want ne $got;
	}
	is(join("\n", @missing), '', "on $major, every such statement is run (but those excepted: @{[ scalar @$excepted ]})");
	is(join("\n", @differ), '', "on $major, each error is 18.6's: message, detail and hint");
}
# and the SQLSTATE, which the test echoes after the last
like(slurp("$root/expected/core18_names_1.out"),
	qr/^ERROR:  timestamp out of range for UUID version 7\nDETAIL:  [^\n]*\n\\echo :LAST_ERROR_SQLSTATE\n22008$/m,
	"the SQLSTATE of a shifted time out of range is 18.6's, 22008");

done_testing();
