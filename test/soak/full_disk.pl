# make soak (not part of CI): the mark on a full disk.
#
# The data directory, then pg_wal alone (initdb --waldir), on a
# size-limited tmpfs that make soak mounts (as root; skipped, saying so,
# where it cannot).  Data directory full: a value that needs the mark
# moved fails with PostgreSQL's own "could not write" error (the mark is
# written to a new file, which needs space).  pg_wal full: values under
# valid marks run and write no WAL of their own; the move that needs a new
# segment PANICs, as any WAL write does.  Either way nothing committed
# before is lost, and once space is freed generation resumes and stays
# above every earlier value.
use strict;
use warnings FATAL => 'all';
use File::Copy qw(move);
use Time::HiRes qw(time sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $tmpfs = $ENV{UUIDX_SOAK_TMPFS} // '';
plan skip_all => 'no size-limited tmpfs for the data directory (make soak mounts one when run as root)'
  unless $tmpfs ne '' && -d $tmpfs && -w $tmpfs;

# The extension, 1,000 rows keyed by uuid_generate_v7(), a checkpoint.
sub rows_then_checkpoint
{
	my ($node) = @_;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION uuidx;
		CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int)});
	$node->safe_psql('postgres', 'INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g');
	$node->safe_psql('postgres', 'CHECKPOINT');
}

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
rows_then_checkpoint($node);
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
system('find', $tmpfs, '-mindepth', '1', '-delete') == 0 or die 'could not empty the tmpfs';

# --- pg_wal on a file system of its own, full (initdb --waldir), the mark
# in WAL.  Values under a valid mark write no WAL, so a read-only workload
# keeps running: the mark worker's records, a few a second, fit in the
# current segment.  When a record needs a new segment and there is no room
# for one, the server PANICs, as for any WAL write, and crash recovery
# needs room too: once space is freed the server starts, nothing committed
# is lost, and new values are above every earlier one.
my $waldir = "$tmpfs/wal";
my $wal = PostgreSQL::Test::Cluster->new('full_wal');
$wal->init(extra => [ '--waldir' => $waldir, '--wal-segsize' => 1 ]);
$wal->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uuidx'
uuidx.wal_log_mark = on
min_wal_size = '2MB'
max_wal_size = '1GB'
checkpoint_timeout = '1d'
wal_recycle = off
restart_after_crash = on
});
# (No checkpoint after the one below: the messages that fill WAL set none
# off.  With max_wal_size at 8 MB they did, and the outcome depended on how
# far the checkpointer got before the mark's move: its removal of old
# segments made room for the next one, and the move went through, or it
# needed a segment itself and PANICked in the middle of the filling.)
$wal->start;
rows_then_checkpoint($wal);
$filler = "$tmpfs/filler";
system("dd if=/dev/zero of=$filler bs=64k >/dev/null 2>&1");

# Three seconds of values, read-only, with the disk full.  The worker's
# records come about twice a second, whatever the values: the WAL is
# bounded by the time it had (a kilobyte, and 512 bytes a second, which a
# slow machine only raises), where a record per value, or per
# millisecond's values, would write megabytes or hundreds of kilobytes.
my $t_burst = time;
my $lsn0 = $wal->lsn('insert');
my $burst = $wal->safe_psql('postgres', q{
	DO $$DECLARE stop timestamptz := clock_timestamp() + interval '3 s';
	BEGIN WHILE clock_timestamp() < stop LOOP PERFORM count(uuid_generate_v7()) FROM generate_series(1, 10000); END LOOP; END $$;
	SELECT 'ok'});
is($burst, 'ok', 'pg_wal full: three seconds of values under valid marks run');
my $bytes = $wal->safe_psql('postgres', "SELECT pg_current_wal_insert_lsn() - '$lsn0'");
my $bound = int(1024 + 512 * (time - $t_burst));
ok($bytes < $bound, "pg_wal full: the values wrote $bytes bytes of WAL (< $bound), the mark's records alone");
is($wal->safe_psql('postgres', 'SELECT count(*) FROM t'), '1000', 'pg_wal full: nothing committed is lost');

# Bring WAL to the last few hundred bytes of the last segment pg_wal
# holds, with messages of no consequence (crossing into segments made
# ahead, which need no space), then let the mark move: its record needs a
# new segment, for which there is no room.  Each message is sized and
# written in the statement that reads the position: the worker's records
# (48 bytes, twice a second) between the two would otherwise eat the
# margin a message leaves on a slow machine.  The mark worker may be the
# one that needs the segment, once the loop has left it full: the log is
# read from before the loop.
my $log_offset = -s $wal->logfile;
my $seg = 1024 * 1024;
for (1 .. 200)
{
	my ($room, $ahead) = split /\|/, $wal->safe_psql('postgres', qq{
		WITH w AS MATERIALIZED (
		  SELECT $seg - (pg_current_wal_insert_lsn() - '0/0') % $seg AS room,
		         (SELECT count(*) FROM pg_ls_waldir()
		          WHERE name ~ '^[0-9A-F]{24}\$' AND name > pg_walfile_name(pg_current_wal_insert_lsn())) AS ahead)
		SELECT room, ahead,
		       CASE WHEN ahead > 0 OR room >= 120 THEN
		         pg_logical_emit_message(false, 'x',
		           repeat('x', greatest(1, CASE WHEN ahead > 0 THEN room + 1000 ELSE trunc((room - 200) * 0.97) END)::integer))
		       END
		FROM w});
	last if $ahead == 0 && $room < 120;
}
($ret, $out, $err) = $wal->psql('postgres', 'SELECT pg_sleep(1.5); SELECT uuid_generate_v7()');
isnt($ret, 0, 'pg_wal full, the mark must move: the statement fails');
my $log = slurp_file($wal->logfile, $log_offset);
like($log, qr/PANIC:\s+could not (write to|create|extend) file .*No space left on device/,
	'pg_wal full, the mark must move: PANIC for want of WAL space, as for any WAL write');
unlink $filler or die $!;
# Crash recovery may have failed for want of space too, and the postmaster
# with it: then start it again.  Until it accepts connections or is gone,
# it is still deciding.
my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
while (time < $deadline && system('pg_isready', '-q', '-h', $wal->host, '-p', $wal->port) != 0)
{
	if (!kill(0, $wal->{_pid}))
	{
		note 'the postmaster stopped after the PANIC; starting it';
		$wal->_update_pid(0);
		$wal->start;
		last;
	}
	sleep 0.1;
}
$wal->poll_query_until('postgres', 'SELECT true') or die 'the server did not come back';
is($wal->safe_psql('postgres', 'SELECT count(*) FROM t'), '1000', 'space freed: the server recovered, nothing committed lost');
$before = $wal->safe_psql('postgres', 'SELECT id FROM t ORDER BY id DESC LIMIT 1');
$wal->safe_psql('postgres', 'INSERT INTO t (n) SELECT g FROM generate_series(1001, 2000) g');
is($wal->safe_psql('postgres', "SELECT count(*) FROM t WHERE n > 1000 AND id > '$before'"), '1000',
	'space freed: generation resumes, above every earlier value');
$wal->stop;
done_testing();
