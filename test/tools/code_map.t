# The code's map (DEVELOPMENT.md) holds: the objects' call graph (an
# object's undefined symbols against the others' defined ones) has no
# circle, calls between folders run down the map only, and within a
# folder down its layers, no C file passes 800 lines, and every function src/time_range/README names exists.  Builds uuidx in a copy of the tree against the
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

# Within a folder, the layers DEVELOPMENT.md's map gives it (its last
# column: layers separated by semicolons, files of a layer by commas; a
# subfolder's files by their path within the folder): every object of the
# folder is in a layer, and its calls within the folder go to a later one.
open my $map_fh, '<', "$root/DEVELOPMENT.md" or die "DEVELOPMENT.md: $!";
my (%layer, %layered);
for my $row (grep { /^\| `[\w\/]+` \|/ } <$map_fh>)
{
	my @cells = split /\s*\|\s*/, $row;
	my ($folder) = $cells[1] =~ /^`([\w\/]+?)\/?`$/;
	next unless defined $folder && $folder =~ m{^\w+$} && defined $cells[4] && $cells[4] ne '';
	my $cell = $cells[4];
	1 while $cell =~ s/\([^()]*\)//g;    # the descriptions, which may hold ; and `
	my @layers = split /;/, $cell;
	for my $i (0 .. $#layers)
	{
		$layer{"src/$folder/$_"} = $i, $layered{$folder} = 1 for $layers[$i] =~ /`([\w\/]+)\.c`/g;
	}
}
close $map_fh;
my (@unlayered, @sideways);
for my $o (@objects)
{
	my $f = folder($o);
	next unless $layered{$f};
	(my $c = $o) =~ s/\.o$//;
	push @unlayered, $o unless exists $layer{$c};
}
for my $from (sort keys %edges)
{
	for my $to (sort keys %{ $edges{$from} })
	{
		my ($f, $t) = (folder($from), folder($to));
		next unless $f eq $t && $layered{$f};
		my ($a, $b) = map { s/\.o$//r } ($from, $to);
		push @sideways, "$from -> $to"
		  if exists $layer{$a} && exists $layer{$b} && $layer{$a} >= $layer{$b};
	}
}
is("@unlayered", '', 'every object of ' . join(', ', sort keys %layered) . ' is in a layer of the map');
is(join("\n", @sideways), '', 'calls within a folder run down its layers in the map');

my @long;
for my $file (split /\n/, `find '$root/src' -name '*.[ch]' | sort`)
{
	open my $fh, '<', $file or die "$file: $!";
	my $lines = () = <$fh>;
	push @long, "$file: $lines" if $lines > 800;
}
is(join("\n", @long), '', 'no file of src/ passes 800 lines');

# src/time_range/README follows queries function by function: each name it
# gives as file:name is in that file, and each other name in backticks
# with an underscore is in src/, the SQL scripts or PostgreSQL's headers.
my $readme_path = "$root/src/time_range/README";
open my $readme, '<', $readme_path or die "$readme_path: $!";
my $readme_text = do { local $/; <$readme> };
close $readme;
sub has_word
{
	my ($word, @files) = @_;
	for my $file (@files)
	{
		open my $fh, '<', $file or next;
		my $text = do { local $/; <$fh> };
		return 1 if $text =~ /\b\Q$word\E\b/;
	}
	return 0;
}
my @sources = grep { -f } (glob("$root/src/*.[ch] $root/src/*/*.[ch] $root/src/*/*/*.[ch]"),
	"$root/sql/extension/uuidx.sql", glob("$root/sql/extension/uuidx_core18--*.sql"));
my $pg_includes = `'$pg_config' --includedir-server`;
chomp $pg_includes;
my (@missing, %checked);
while ($readme_text =~ /\b((?:scan\/)?\w+\.[ch]):(\w+)/g)
{
	my ($file, $name) = ($1, $2);
	next if $checked{"$file:$name"}++;
	my ($path) = grep { -f } ("$root/src/time_range/$file", "$root/src/$file");
	push @missing, "$file:$name" unless $path && has_word($name, $path);
}
while ($readme_text =~ /`(\w*_\w*)(?:\(\))?`/g)
{
	my $name = $1;
	next if $checked{$name}++;
	next if has_word($name, @sources);
	push @missing, $name
	  if system('grep', '-rqw', '--include=*.h', $name, $pg_includes) != 0;
}
is(join(' ', @missing), '', 'every function src/time_range/README names exists (' . scalar(keys %checked) . ' names)');

done_testing();
