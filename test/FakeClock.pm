# A server clock the TAP tests can move: libfaketime in the server's
# environment, reading a file the test rewrites.  Shared by
# t/002_clock_faults.pl, t/003_restarts.pl and t/009_range_end.pl.
#
#   use FakeClock;                       # skips the whole test without libfaketime
#   my $clock = FakeClock->new($node);
#   $clock->set('-1h');                  # relative offset, or
#   $clock->set(FakeClock::utc($t));     # a frozen absolute UTC time
#   $clock->run($node, 'start');         # a Cluster method under libfaketime
#
# No shared memory between the processes (FAKETIME_DISABLE_SHM, known to
# libfaketime 0.9.10, trixie's and unstable's; 0.9.7 ignores it): the
# clocks need none, and with it a restore_command's cp under libfaketime
# once died of SIGBUS on trixie (t/013_standbys.pl's PITR node).
#
# A clock that only needs to run behind, from its start, is better set
# once (the standby tests, whose servers run long under load):
#
#   FakeClock::run_behind($node, '-1h', 'start');
#
# libfaketime reads a file with fopen(), which takes a lock inside the C
# library; a signal handler that reads the clock while the code it
# interrupted was reading the file waits on that lock forever.  With the
# offset in the environment there is no file to read.
package FakeClock;

use strict;
use warnings FATAL => 'all';
use POSIX qw(strftime);
use Test::More;

# libfaketime: UUIDX_LIBFAKETIME, or where Debian (any architecture's
# multiarch folder), Fedora and a source install put it.
my ($libfaketime) = grep { defined && -f } (
	$ENV{UUIDX_LIBFAKETIME},
	glob('/usr/lib/*/faketime/libfaketime.so.1'),
	'/usr/lib64/faketime/libfaketime.so.1',
	'/usr/lib/faketime/libfaketime.so.1',
	'/usr/local/lib/faketime/libfaketime.so.1');

# A test that uses this module cannot run without the library: skip it
# whole, saying why (make test installs Debian's faketime package).
sub import
{
	plan skip_all => 'libfaketime not found (install the faketime package, or set UUIDX_LIBFAKETIME)'
	  unless defined $libfaketime;
}

sub new
{
	my ($class, $node) = @_;
	my $self = bless { file => $node->basedir . '/faketime' }, $class;
	$self->set('+0');
	return $self;
}

# What the server's clock says: a relative offset such as "-1h", or a frozen
# absolute UTC time "YYYY-MM-DD hh:mm:ss".  libfaketime rereads the file on
# every clock call (FAKETIME_NO_CACHE); the rename makes each change atomic.
sub set
{
	my ($self, $spec) = @_;
	open my $fh, '>', "$self->{file}.tmp" or die $!;
	print $fh "$spec\n";
	close $fh;
	rename "$self->{file}.tmp", $self->{file} or die $!;
}

# A Unix time as the absolute UTC time set() takes.
sub utc { strftime('%Y-%m-%d %H:%M:%S', gmtime(shift)) }

# Run a Cluster method (start, restart) with libfaketime in the server's
# environment; it must be set again around every start.
sub run
{
	my ($self, $node, $method, @args) = @_;
	local $ENV{LD_PRELOAD} = $libfaketime;
	local $ENV{FAKETIME_TIMESTAMP_FILE} = $self->{file};
	local $ENV{FAKETIME_NO_CACHE} = '1';
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	local $ENV{FAKETIME_DISABLE_SHM} = '1';
	local $ENV{TZ} = 'UTC';
	return $node->$method(@args);
}

# Run a Cluster method with the server's clock a fixed offset ("-1h") from
# the real one, for as long as that server runs.
sub run_behind
{
	my ($node, $offset, $method, @args) = @_;
	local $ENV{LD_PRELOAD} = $libfaketime;
	local $ENV{FAKETIME} = $offset;
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	local $ENV{FAKETIME_DISABLE_SHM} = '1';
	local $ENV{TZ} = 'UTC';
	return $node->$method(@args);
}

1;
