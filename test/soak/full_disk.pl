# make soak (not part of CI): the mark on a full disk.
#
# The data directory on a size-limited tmpfs that make soak mounts (as
# root; skipped, saying so, where it cannot).  Once the disk is full, a
# value that needs the mark moved fails with PostgreSQL's own "could not
# write" error (the mark is written to a new file, which needs space);
# nothing committed before is lost; once space is freed, generation
# resumes and stays above every earlier value.
use strict;
use warnings FATAL => 'all';
use File::Copy qw(move);
use Time::HiRes qw(sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $tmpfs = $ENV{UUIDX_SOAK_TMPFS} // '';
plan skip_all => 'no size-limited tmpfs for the data directory (make soak mounts one when run as root)'
  unless $tmpfs ne '' && -d $tmpfs && -w $tmpfs;

my $node = PostgreSQL::Test::Cluster->new('full_disk');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uuidx'
uuidx.wal_log_mark = on
max_wal_size = '64MB'
min_wal_size = '32MB'
});
# The data directory moves onto the tmpfs, a symbolic link in its place.
my $data = $node->data_dir;
system('cp', '-a', "$data/.", "$tmpfs/") == 0 or die 'could not copy the data directory';
system('rm', '-rf', $data) == 0 or die;
symlink($tmpfs, $data) or die "symlink: $!";
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int)});
$node->safe_psql('postgres', 'INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g');
$node->safe_psql('postgres', 'CHECKPOINT');
my $before = $node->safe_psql('postgres', 'SELECT id FROM t ORDER BY id DESC LIMIT 1');

# Fill the disk, leaving no block free.
my $filler = "$tmpfs/filler";
system("dd if=/dev/zero of=$filler bs=64k >/dev/null 2>&1");
sleep 1.2;    # the next value lies past the mark
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT uuid_generate_v7()');
isnt($ret, 0, 'disk full: a value past the mark is refused');
like($err, qr/ERROR:\s+could not write file "uuidx\.hwm\.tmp": No space left on device/,
	"disk full: PostgreSQL's own could not write error");
is($node->safe_psql('postgres', 'SELECT count(*) FROM t'), '1000', 'disk full: nothing committed is lost');

unlink $filler or die $!;
$node->safe_psql('postgres', 'INSERT INTO t (n) SELECT g FROM generate_series(1001, 2000) g');
is($node->safe_psql('postgres', "SELECT count(*) FROM t WHERE n > 1000 AND id > '$before'"), '1000',
	'space freed: generation resumes, above every earlier value');
$node->stop;
unlink $data;
done_testing();
