# The code's map (DEVELOPMENT.md) holds: the objects' call graph (an
# object's undefined symbols against the others' defined ones) has no
# circle, calls between folders run down the map only, and no C file
# passes 800 lines.  Builds uuidx in a copy of the tree against the
# PostgreSQL that PG_CONFIG names (Debian's 15 by default).
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;

my $root = $ENV{UUIDX_ROOT} // '.';
my $pg_config = $ENV{PG_CONFIG} // '/usr/lib/postgresql/15/bin/pg_config';
plan skip_all => "no $pg_config" unless -x $pg_config;

# The folders, from the top of the map down; a call goes to a later one
# or stays in its folder.
my @folders = ('', 'time_range', 'generators', 'inspect', 'order', 'layout');
my %rank = map { $folders[$_] => $_ } 0 .. $#folders;

my $dir = tempdir(CLEANUP => 1);
system("tar -C '$root' --exclude=.git -cf - src Makefile uuidx.control uuidx_core18.control sql test/preload.conf | tar -C '$dir' -xf -") == 0
  or die 'copy';
is(system("make -C '$dir' -s -j2 PG_CONFIG='$pg_config' >'$dir/build.log' 2>&1"), 0, 'uuidx builds')
  or diag(`tail -20 '$dir/build.log'`);

my @objects = map { s{^\Q$dir\E/}{}r } split /\n/, `find '$dir/src' -name '*.o' | sort`;
ok(@objects >= 20, scalar(@objects) . ' objects');
my (%defined, %edges);
for my $o (@objects)
{
	$defined{$_} = $o for map { (split ' ')[2] } grep { /^\S+ [TDBR] / } `nm --defined-only -g '$dir/$o'`;
}
for my $o (@objects)
{
	for my $sym (map { (split ' ')[1] } `nm -u '$dir/$o'`)
	{
		my $to = $defined{$sym};
		$edges{$o}{$to} = 1 if defined $to && $to ne $o;
	}
}

# A circle: a path from an object back to itself.
my @circles;
for my $start (@objects)
{
	my @stack = ([ $start, [$start] ]);
	my %seen;
	while (my $item = pop @stack)
	{
		my ($at, $path) = @$item;
		for my $next (sort keys %{ $edges{$at} // {} })
		{
			if ($next eq $start)
			{
				push @circles, join(' -> ', @$path, $next);
				next;
			}
			next if $seen{$next}++;
			push @stack, [ $next, [ @$path, $next ] ];
		}
	}
}
is(join("\n", @circles), '', 'no circle in the call graph of the objects');

# src/a/b.o is in folder a; src/x.o in ''.
sub folder { my ($o) = @_; return $o =~ m{^src/([^/]+)/} ? $1 : ''; }
my @upward;
for my $from (sort keys %edges)
{
	for my $to (sort keys %{ $edges{$from} })
	{
		my ($f, $t) = (folder($from), folder($to));
		push @upward, "$from -> $to" if $f ne $t && !(exists $rank{$f} && exists $rank{$t} && $rank{$f} < $rank{$t});
	}
}
is(join("\n", @upward), '', 'calls between folders run down the map (' . join(' > ', map { $_ || 'src' } @folders) . ')');
my @unmapped = grep { !exists $rank{ folder($_) } } @objects;
is("@unmapped", '', 'every object is in a folder of the map');

my @long;
for my $file (split /\n/, `find '$root/src' -name '*.[ch]' | sort`)
{
	open my $fh, '<', $file or die "$file: $!";
	my $lines = () = <$fh>;
	push @long, "$file: $lines" if $lines > 800;
}
is(join("\n", @long), '', 'no file of src/ passes 800 lines');

done_testing();
