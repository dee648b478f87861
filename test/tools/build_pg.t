# tools/build-pg.sh chooses only pinned, verified sources, with no network.
#
# Each case runs the script with --source-only (fetch, verify, unpack, stop)
# in a network namespace of its own with no interface (unshare -n), on a
# cache of its own seeded with the source files that an earlier build of
# PostgreSQL 17 left in the real cache, and on a list of pins written here
# from the tree's: so it needs no network, and it runs after
# `bash tools/build-pg.sh 17` (make matrix's step 17).  The last cases do
# the same for tools/unpack-pg.sh, whose packages step 17 fetched.
use strict;
use warnings;
use File::Temp qw(tempdir);
use File::Copy qw(copy);
use Test::More;

my $root  = $ENV{UUIDX_ROOT} // '.';
my $cache = $ENV{UUIDX_PG_CACHE} // '/var/cache/uuidx-pg';
my $list  = "$root/tools/debian-sources.txt";
plan skip_all => 'needs root (unshare -n, a cold build installs packages)' if $> != 0;

# The tree's lines for postgresql-17; the pin is the first.
my @lines = target_lines('postgresql-17');
my ($pin_version, @pin_files) = pin_files($lines[0]);
my $seed = "$cache/src/17";
plan skip_all => "no pinned 17 sources in $seed (run bash tools/build-pg.sh 17 first)"
  unless seeded($seed, @pin_files);
ok(@lines >= 2, 'debian-sources.txt lists a pin and a fallback for postgresql-17');

# The tree's lines for TARGET, in their order.
sub target_lines
{
	my ($target) = @_;
	open my $fh, '<', $list or die "$list: $!";
	my @found = grep { /^\Q$target\E / } <$fh>;
	close $fh;
	return @found;
}

sub pin_files
{
	my ($line) = @_;
	my (undef, undef, undef, $version, @files) = split ' ', $line;
	return ($version, map { (split /=/)[0] } @files);
}

# Does DIR hold every one of FILES?
sub seeded
{
	my ($dir, @files) = @_;
	return grep({ -f "$dir/$_" } @files) == @files;
}

# Run SCRIPT of tools/ with ARGS as make test does, on the
# list and cache of a case; returns (exit status, stdout, stderr).
sub run_tool
{
	my ($dir, $script, @args) = @_;
	my $out = "$dir/out";
	my $status = system("unshare -n env UUIDX_PG_SOURCES='$dir/sources.txt' UUIDX_PG_CACHE='$dir' "
		  . "bash '$root/tools/$script' @args >'$out' 2>'$out.err'");
	return ($status >> 8, slurp($out), slurp("$out.err"));
}

sub build_pg { return run_tool($_[0], 'build-pg.sh', 17, '--source-only'); }

sub slurp
{
	my ($f) = @_;
	open my $h, '<', $f or return '';
	local $/;
	return scalar(<$h>) // '';
}

# A case: a cache of its own, its src/SUBDIR seeded with FILES from SEED,
# and a list of LINES.
sub setup_cache
{
	my ($subdir, $seed_dir, $files, @list) = @_;
	my $dir = tempdir(CLEANUP => 1);
	mkdir "$dir/src";
	mkdir "$dir/src/$subdir";
	copy("$seed_dir/$_", "$dir/src/$subdir/$_") or die "copy $_: $!" for @$files;
	open my $h, '>', "$dir/sources.txt" or die;
	print $h @list;
	close $h;
	return $dir;
}

# The same with the pinned 17 sources.
sub setup { return setup_cache('17', $seed, \@pin_files, @_); }

# 1. The pin is newer than anything cached and nothing is served (no
# network): the listed fallback found in the cache is built, and said so.
my $newer = $lines[0];
$newer =~ s/\Q$pin_version\E/17.99-0+deb13u1/g;
my $dir = setup($newer, $lines[0]);
my ($status, $out, $err) = build_pg($dir);
is($status, 0, 'a listed fallback in the cache is built when the pin is not served');
like($err, qr/postgresql-17 17\.99-0\+deb13u1 is not served/, 'it says the pin is not served');
like($err, qr/building postgresql-17 \Q$pin_version\E .*a listed fallback: the pinned 17\.99-0\+deb13u1 was not served, 3 files verified/,
	'it reports the version it builds and that it was verified');
my ($tree) = $out =~ /(\S+)\s*\z/;
ok(defined $tree && -x "$tree/configure", "the verified source is unpacked ($tree)");

# 2. The same, with a cached file that differs from its pin: refused.
$dir = setup($lines[0]);
my ($debian_tar) = grep { /\.debian\.tar/ } @pin_files;
open my $t, '>>', "$dir/src/17/$debian_tar" or die;
print $t "tampered\n";
close $t;
($status, $out, $err) = build_pg($dir);
isnt($status, 0, 'a cached file whose SHA-256 differs from its pin is refused');
like($err, qr/refusing postgresql-17 \Q$pin_version\E from the cache: \Q$debian_tar\E has SHA-256 [0-9a-f]{64}, but \S+ pins [0-9a-f]{64}/,
	'the refusal names the version, the file and both digests');
ok(!-d "$dir/build/17/postgresql-17-" . ($pin_version =~ s/-[^-]*$//r), 'nothing is unpacked');

# 3. Only an unlisted version in the cache: never built.
my $other = $lines[0];
$other =~ s/\Q$pin_version\E/17.98-0+deb13u1/g;
$dir = setup($other);
($status, $out, $err) = build_pg($dir);
isnt($status, 0, 'a cached version that is not listed is not built');
like($err, qr/none of the versions of postgresql-17 listed in \S+ could be fetched: 17\.98-0\+deb13u1 \(trixie's index could not be fetched .*dget could not fetch/,
	'it says which listed versions it tried and why each failed');

# 4. The stamp of the real build records the version and its verification.
my $stamp = slurp("$cache/17/.uuidx-build-complete");
SKIP:
{
	skip "no finished build of 17 in $cache", 1 unless $stamp;
	like($stamp, qr/^debian_source=postgresql-17 \S+ \(trixie\), .*files verified against their pinned SHA-256/m,
		'the build stamp records the Debian version and that it was verified');
}

# 5. Binary packages (tools/unpack-pg.sh, the 15 that test/t/015_moves.pl
# upgrades from on 17): the pinned packages found in the cache are
# unpacked and run; a package that differs from its pin is refused.
my ($binary) = target_lines('postgresql-15-binary');
my (undef, @debs) = pin_files($binary);
my $deb_seed = "$cache/src/15-binary";
SKIP:
{
	skip "no pinned 15 packages in $deb_seed (make test on 17 fetches them)", 4
	  unless seeded($deb_seed, @debs);
	my $d = setup_cache('15-binary', $deb_seed, \@debs, $binary);
	($status, $out, $err) = run_tool($d, 'unpack-pg.sh', 15);
	is($status, 0, 'the pinned 15 packages in the cache are unpacked');
	my ($pg_config) = $out =~ /(\S+)\s*\z/;
	like(`'$pg_config' --version 2>&1`, qr/^PostgreSQL 15\.\d+ \(Debian /, 'and the unpacked PostgreSQL runs');
	system('rm', '-rf', "$d/15-binary") == 0 or die "rm $d/15-binary";    # unpack again
	open $t, '>>', "$d/src/15-binary/$debs[0]" or die;
	print $t "tampered\n";
	close $t;
	($status, $out, $err) = run_tool($d, 'unpack-pg.sh', 15);
	isnt($status, 0, 'a cached package whose SHA-256 differs from its pin is refused');
	like($err, qr/refusing postgresql-15 \S+ from the cache: \Q$debs[0]\E has SHA-256 [0-9a-f]{64}, but \S+ pins/,
		'the refusal names the package file');
}

done_testing();
