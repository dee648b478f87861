# tools/build-pg.sh chooses only pinned, verified sources, with no network.
#
# Each case runs the script with --source-only (fetch, verify, unpack, stop)
# in a network namespace of its own with no interface (unshare -n), on a
# cache of its own seeded with the source files that an earlier build of
# PostgreSQL 18 left in the real cache, and on a list of pins written here
# from the tree's: so it needs no network, and it runs after
# `bash tools/build-pg.sh 18` (make matrix's step 18-assert).  The last
# cases do the same for the Debian roots' packages (tools/debian-root.sh),
# which the steps that ran in the roots fetched.
use strict;
use warnings;
use File::Temp qw(tempdir);
use File::Copy qw(copy);
use Test::More;

my $root  = $ENV{UUIDX_ROOT} // '.';
my $cache = $ENV{UUIDX_PG_CACHE} // '/var/cache/uuidx-pg';
my $list  = "$root/tools/debian-sources.txt";
plan skip_all => 'needs root (unshare -n, a cold build installs packages)' if $> != 0;

# The tree's lines for postgresql-18; the pin is the first.
my @lines = target_lines('postgresql-18');
my ($pin_version, @pin_files) = pin_files($lines[0]);
my $seed = "$cache/src/18";
plan skip_all => "no pinned 18 sources in $seed (run bash tools/build-pg.sh 18 first)"
  unless seeded($seed, @pin_files);

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

sub build_pg { return run_tool($_[0], 'build-pg.sh', 18, '--source-only'); }

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

# The same with the pinned 18 sources.
sub setup { return setup_cache('18', $seed, \@pin_files, @_); }

# 1. The pin is newer than anything cached and nothing is served (no
# network): the listed fallback found in the cache is built, and said so.
my $newer = $lines[0];
$newer =~ s/\Q$pin_version\E/18.99-1/g;
my $dir = setup($newer, $lines[0]);
my ($status, $out, $err) = build_pg($dir);
is($status, 0, 'a listed fallback in the cache is built when the pin is not served');
like($err, qr/postgresql-18 18\.99-1 is not served/, 'it says the pin is not served');
like($err, qr/building postgresql-18 \Q$pin_version\E .*a listed fallback: the pinned 18\.99-1 was not served, 3 files verified/,
	'it reports the version it builds and that it was verified');
my ($tree) = $out =~ /(\S+)\s*\z/;
ok(defined $tree && -x "$tree/configure", "the verified source is unpacked ($tree)");

# 2. The same, with a cached file that differs from its pin: refused.
$dir = setup($lines[0]);
my ($debian_tar) = grep { /\.debian\.tar/ } @pin_files;
open my $t, '>>', "$dir/src/18/$debian_tar" or die;
print $t "tampered\n";
close $t;
($status, $out, $err) = build_pg($dir);
isnt($status, 0, 'a cached file whose SHA-256 differs from its pin is refused');
like($err, qr/refusing postgresql-18 \Q$pin_version\E from the cache: \Q$debian_tar\E has SHA-256 [0-9a-f]{64}, but \S+ pins [0-9a-f]{64}/,
	'the refusal names the version, the file and both digests');
ok(!-d "$dir/build/18/postgresql-18-" . ($pin_version =~ s/-[^-]*$//r), 'nothing is unpacked');

# 3. Only an unlisted version in the cache: never built.
my $other = $lines[0];
$other =~ s/\Q$pin_version\E/18.98-1/g;
$dir = setup($other);
($status, $out, $err) = build_pg($dir);
isnt($status, 0, 'a cached version that is not listed is not built');
like($err, qr/none of the versions of postgresql-18 \(Debian's postgresql-18, sid\) listed in \S+ could be fetched, the pin and its fallbacks: 18\.98-1 \(sid's index could not be fetched .*dget could not fetch/,
	'it says which listed versions it tried and why each failed');

# 4. The stamp of the real build records the version and its verification.
my $stamp = slurp("$cache/18/.uuidx-build-complete");
SKIP:
{
	skip "no finished build of 18 in $cache", 1 unless $stamp;
	like($stamp, qr/^debian_source=postgresql-18 \S+ \(sid\), .*files verified against their pinned SHA-256/m,
		'the build stamp records the Debian version and that it was verified');
}

# 5. The Debian roots' binary packages (tools/debian-root.sh fetch, what
# making a root starts with): the pinned packages found in the cache are
# taken; a package that differs from its pin is refused.  And the roots
# the matrix made hold the pinned versions.
for my $name ('trixie', 'sid')
{
	my @targets = $name eq 'trixie'
	  ? ('postgresql-17-binary', 'postgresql-17-partman', 'postgresql-17-timescaledb', 'postgresql-15-binary')
	  : ('postgresql-18-binary', 'postgresql-18-partman', 'postgresql-18-timescaledb', 'postgresql-18-pg-hint-plan',
		'postgresql-18-pg-uuidv7', 'postgresql-19-binary', 'postgresql-17-before-18');
	my @pins = map { (target_lines($_))[0] } @targets;
	my %debs;
	for my $i (0 .. $#targets)
	{
		my (undef, @files) = pin_files($pins[$i]);
		$debs{ $targets[$i] } = \@files;
	}
  SKIP:
	{
		skip "no pinned packages of root $name in $cache/src (make matrix's steps fetch them)", 6
		  if grep { !seeded("$cache/src/$_", @{ $debs{$_} }) } @targets;
		my $d = tempdir(CLEANUP => 1);
		for my $t (@targets)
		{
			mkdir "$d/src";
			mkdir "$d/src/$t";
			copy("$cache/src/$t/$_", "$d/src/$t/$_") or die "copy $_: $!" for @{ $debs{$t} };
		}
		open my $h, '>', "$d/sources.txt" or die;
		print $h @pins;
		close $h;
		($status, $out, $err) = run_tool($d, 'debian-root.sh', 'fetch', $name);
		is($status, 0, "root $name: the pinned packages in the cache are taken, with no network");
		is(scalar(split /\n/, $out), scalar(map { @{ $debs{$_} } } @targets), "root $name: every pinned package");
		my $victim = $debs{ $targets[0] }[0];
		open $t, '>>', "$d/src/$targets[0]/$victim" or die;
		print $t "tampered\n";
		close $t;
		($status, $out, $err) = run_tool($d, 'debian-root.sh', 'fetch', $name);
		isnt($status, 0, "root $name: a cached package whose SHA-256 differs from its pin is refused");
		like($err, qr/refusing \S+ \S+ from the cache: \Q$victim\E has SHA-256 [0-9a-f]{64}, but \S+ pins/,
			'the refusal names the package file');
		# A pin no longer served, and its fallback neither: named, with
		# what was tried.
		my ($pin, $fallback) = ($pins[0], $pins[0]);
		my ($version) = pin_files($pin);
		$pin =~ s/\Q$version\E/99.1-1/g;
		$fallback =~ s/\Q$version\E/99.0-1/g;
		open $h, '>', "$d/sources.txt" or die;
		print $h $pin, $fallback, @pins[ 1 .. $#pins ];
		close $h;
		($status, $out, $err) = run_tool($d, 'debian-root.sh', 'fetch', $name);
		isnt($status, 0, "root $name: a pinned version no longer served, nor its fallback, stops the root");
		like($err, qr/none of the versions of \Q$targets[0]\E \(Debian's \S+, \S+\) listed in \S+ could be fetched, the pin and its fallbacks: 99\.1-1 \(.+\) 99\.0-1 \(/,
			'it names the target, the package, the versions tried and why each failed');
	}
	my $stamp = slurp("$cache-roots/$name/.uuidx-packages");
  SKIP:
	{
		skip "no root $name in $cache-roots", 1 unless $stamp;
		my @missing = grep { my ($p, $v) = (split /_/, $_)[0, 1]; $stamp !~ /^\Q$p $v\E$/m }
		  map { @{ $debs{$_} } } @targets;
		is("@missing", '', "root $name holds every pinned package at its pinned version");
	}
}

# 6. A run in a root leaves no mount and no process behind when its command
# fails, or when the run is killed outright: every mount is its namespace's.
SKIP:
{
	skip "no root trixie in $cache-roots", 5 unless -f "$cache-roots/trixie/.uuidx-root";
	my $mounted = sub {
		open my $m, '<', '/proc/self/mounts' or die;
		return scalar grep { (split ' ')[1] =~ m{^\Q$cache-roots\E/} } <$m>;
	};
	my $tool = "$root/tools/debian-root.sh";
	my $tmp = tempdir(CLEANUP => 1);
	my $status = system("bash '$tool' run trixie sh -c 'test -d /proc/1 && false' >'$tmp/out' 2>&1");
	isnt($status, 0, 'a command that fails in a root: its status is the run\'s');
	is($mounted->(), 0, 'and no mount of the root is left here');
	like(slurp("$tmp/out"), qr/kept the root's \/tmp for inspection: \S+/, "and the root's /tmp is kept, and said");
	my ($kept) = slurp("$tmp/out") =~ /inspection: (\S+)/;
	system('rm', '-rf', $kept) if $kept;
	# killed (SIGKILL) while a server-like child sleeps inside
	my $pid = fork // die;
	if (!$pid)
	{
		exec('bash', $tool, 'run', 'trixie', 'sh', '-c', 'sleep 300 & sleep 300; wait');
	}
	my @inside;
	for (1 .. 600)
	{
		@inside = split ' ', `pgrep -f 'slee[p] 300'`;
		last if @inside >= 2;
		select(undef, undef, undef, 0.1);
	}
	kill 'KILL', $pid;
	waitpid($pid, 0);
	# gone, or a zombie its new parent has not reaped yet
	my $alive = sub {
		return grep {
			my $stat = slurp("/proc/$_/stat");
			$stat ne '' && (split ' ', $stat)[2] ne 'Z'
		} @inside;
	};
	my $gone = 0;
	for (1 .. 300)
	{
		$gone = 1, last if !$alive->() && !$mounted->();
		select(undef, undef, undef, 0.1);
	}
	ok(@inside >= 2 && $gone, 'a run killed outright: its mounts and its processes go with it')
	  or diag("inside: @inside; alive: @{[ $alive->() ]}; " . `ps -o pid,stat,args -p @{[ join ',', @inside, 1 ]} 2>&1`);
	is($mounted->(), 0, 'no mount of the roots is left here after every run');
}

done_testing();
