# Load: many sessions and parallel workers drawing from the one server-wide
# state at once; with the library preloaded, and on PostgreSQL 17 and later
# again with the state in the DSM registry.
#  (a) pgbench, 8 clients, 200,000 rows into each of three tables keyed by
#      uuid_generate_v6(), _v7(), _v8(): no error, no duplicate, each
#      client's keys strictly increasing in insert order, and no two keys of
#      a generator sharing a timestamp position (which only a shared state
#      guarantees).
#  (b) a parallel CREATE TABLE AS over 200,000 rows, with workers launched:
#      values distinct, between a value generated just before and one just
#      after, increasing within each process, and positions unique across
#      the workers and the leader.
use strict;
use warnings FATAL => 'all';
use Time::HiRes qw(time);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $clients = 8;
my $rows_per_insert = 25;
my $tx_per_client = 1000;    # 8 x 1000 x 25 = 200,000 rows per table
my $rows = $clients * $tx_per_client * $rows_per_insert;

my $node = PostgreSQL::Test::Cluster->new('load');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uuidx'
max_connections = 30
max_worker_processes = 8
max_parallel_workers = 8
});
$node->start;
my $major = $node->pg_version->major;

# A key's timestamp position: v7/v8 the millisecond and the 16-bit counter
# (bits 0-63 without the version nibble, plus bits 66-69), v6 the 60-bit
# timestamp (bits 0-63 without the version nibble).  Two values of one
# generator never share a position when the state is shared: each value
# takes max(clock, last + 1) from the one server-wide position.  With
# per-backend state, concurrent backends would seed the same millisecond's
# counter independently and collide.
$node->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE FUNCTION pos(u uuid) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	  SELECT overlay(substr(replace(u::text, '-', ''), 1, 16) PLACING '' FROM 13 FOR 1)
	         || CASE WHEN substr(replace(u::text, '-', ''), 13, 1) = '6' THEN ''
	                 ELSE ((get_byte(uuid_send(u), 8) >> 2) & 15)::text END $$;
	CREATE TABLE k6 (seq bigserial, id uuid PRIMARY KEY DEFAULT uuid_generate_v6(), client int NOT NULL);
	CREATE TABLE k7 (seq bigserial, id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), client int NOT NULL);
	CREATE TABLE k8 (seq bigserial, id uuid PRIMARY KEY DEFAULT uuid_generate_v8(), client int NOT NULL);
});

# Both parts run with the library preloaded, and on PostgreSQL 17 and later
# again with the state in the DSM registry (not preloaded), where every
# backend and worker attaches to the segment on first use.  $m names the
# mode in test names.
$node->safe_psql('postgres', q{
	CREATE TABLE src AS SELECT g FROM generate_series(1, 200000) g;
	ANALYZE src;
	-- pg_backend_pid() is PARALLEL RESTRICTED (it would run in the leader
	-- only); this wrapper lets each worker report its own pid (STABLE:
	-- a VOLATILE PL/pgSQL function may not run in a worker).
	CREATE FUNCTION proc_pid() RETURNS integer LANGUAGE plpgsql STABLE PARALLEL SAFE
	  AS $$ BEGIN RETURN pg_backend_pid(); END $$;
	CREATE TABLE marks (label text, u6 uuid, u7 uuid, u8 uuid);
});

sub load_checks
{
	my ($m) = @_;
	$node->safe_psql('postgres', 'TRUNCATE k6, k7, k8');
	# --- (a) pgbench
	my $script = $node->basedir . '/insert.sql';
	open my $fh, '>', $script or die $!;
	print $fh <<~"EOS";
	INSERT INTO k6 (client) SELECT :client_id FROM generate_series(1, $rows_per_insert);
	INSERT INTO k7 (client) SELECT :client_id FROM generate_series(1, $rows_per_insert);
	INSERT INTO k8 (client) SELECT :client_id FROM generate_series(1, $rows_per_insert);
	EOS
	close $fh;

	my ($out, $err) = ('', '');
	my $t0 = time;
	my $ok = IPC::Run::run(
		[ 'pgbench', '-n', '-h', $node->host, '-p', $node->port,
		  '-c', $clients, '-j', 2, '-t', $tx_per_client, '-f', $script, 'postgres' ],
		'>', \$out, '2>', \$err);
	my $secs = time - $t0;
	note sprintf('pgbench: %d clients x %d transactions x 3 inserts of %d rows in %.1f s',
		$clients, $tx_per_client, $rows_per_insert, $secs);
	# A duplicate key (unique violation) or any other error aborts a client:
	# pgbench exits non-zero and reports it.
	ok($ok, "$m: pgbench exits 0") or diag "stdout:\n$out\nstderr:\n$err";
	unlike($err, qr/ERROR|unique|duplicate/i, "$m: pgbench reports no error");
	like($out, qr/number of transactions actually processed: @{[ $clients * $tx_per_client ]}\//,
		"$m: pgbench processed every transaction");

	for my $v (6, 7, 8)
	{
		my ($n, $ids, $positions, $nclients, $bad) = split /\|/, $node->safe_psql('postgres', qq{
			SELECT count(*), count(DISTINCT id), count(DISTINCT pos(id)), count(DISTINCT client),
			       count(*) FILTER (WHERE id <= prev)
			FROM (SELECT id, client, lag(id) OVER (PARTITION BY client ORDER BY seq) prev FROM k$v) s});
		is("$n $ids $nclients", "$rows $rows $clients",
			"$m: v$v: exactly $rows rows, $rows distinct keys, from $clients clients");
		# Fails if a generator handed one session a value not greater than its
		# previous one.
		is($bad, 0, "$m: v$v: within each client, keys strictly increasing in insert order");
		# Fails (almost surely) if sessions did not share one state.
		is($positions, $rows, "$m: v$v: no two keys share a timestamp position across the $clients clients");
	}

	# --- (b) parallel workers
	# The leader scans too: a worker that starts late (a busy machine) may
	# find every block taken.  The statement is run again until values came
	# from more than one process, as the checks below need; they then fail,
	# as before, if a worker had a state of its own.
	my $force = $major >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';
	my $plan;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	for (my $try = 1;; $try++)
	{
		$node->safe_psql('postgres', 'TRUNCATE marks; DROP TABLE IF EXISTS par');
		$plan = $node->safe_psql('postgres', qq{
			SET $force = on;
			SET max_parallel_workers_per_gather = 2;
			SET parallel_setup_cost = 0;
			SET parallel_tuple_cost = 0;
			SET min_parallel_table_scan_size = 0;
			INSERT INTO marks SELECT 'before', uuid_generate_v6(), uuid_generate_v7(), uuid_generate_v8();
			EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
			CREATE TABLE par AS
			  SELECT uuid_generate_v6() u6, uuid_generate_v7() u7, uuid_generate_v8() u8,
			         proc_pid() pid, clock_timestamp() ts
			  FROM src;
			INSERT INTO marks SELECT 'after', uuid_generate_v6(), uuid_generate_v7(), uuid_generate_v8();
		});
		my $procs = $node->safe_psql('postgres', 'SELECT count(DISTINCT pid) FROM par');
		last if $procs >= 2 || time > $deadline;
		note "$m: try $try: values from $procs process only, again";
	}
	note $plan;
	my ($launched) = $plan =~ /Workers Launched: (\d+)/;
	ok(defined $launched && $launched >= 1, "$m: EXPLAIN ANALYZE: parallel workers launched (" . ($launched // 'none') . ')');
	like($plan, qr/Parallel Seq Scan on public\.src[^\n]*\n\s*Output: uuid_generate_v6\(\), uuid_generate_v7\(\), uuid_generate_v8\(\)/,
		"$m: the generators are evaluated in the parallel scan, i.e. in the workers");

	my ($n, $pids, $d6, $d7, $d8, $p6, $p7, $p8, $in6, $in7, $in8) = split /\|/, $node->safe_psql('postgres', q{
		SELECT count(*), count(DISTINCT p.pid),
		       count(DISTINCT p.u6), count(DISTINCT p.u7), count(DISTINCT p.u8),
		       count(DISTINCT pos(p.u6)), count(DISTINCT pos(p.u7)), count(DISTINCT pos(p.u8)),
		       count(*) FILTER (WHERE p.u6 > b.u6 AND p.u6 < a.u6),
		       count(*) FILTER (WHERE p.u7 > b.u7 AND p.u7 < a.u7),
		       count(*) FILTER (WHERE p.u8 > b.u8 AND p.u8 < a.u8)
		FROM par p, marks b, marks a WHERE b.label = 'before' AND a.label = 'after'});
	is($n, 200000, "$m: parallel CREATE TABLE AS: 200,000 rows");
	# Without this the rest would say nothing about workers.
	ok($pids >= 2, "$m: values came from $pids processes (leader and workers)");
	is("$d6 $d7 $d8", "$n $n $n", "$m: parallel: every value of every generator distinct");
	# Fails (almost surely) if workers had their own state instead of the
	# leader's server-wide one.
	is("$p6 $p7 $p8", "$n $n $n", "$m: parallel: no two values share a timestamp position across processes");
	# Fails if a worker started from its own, older state.
	is("$in6 $in7 $in8", "$n $n $n",
		"$m: parallel: every value greater than one generated just before and smaller than one just after");
	# Within a process, generation order is the order of clock_timestamp()
	# (taken right after the values, in the same row): sorted by value, the
	# times never go back.  Fails if a process's values were not increasing.
	my $back = $node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE ts < lag6) || ' ' || count(*) FILTER (WHERE ts < lag7)
		       || ' ' || count(*) FILTER (WHERE ts < lag8)
		FROM (SELECT ts, lag(ts) OVER (PARTITION BY pid ORDER BY u6) lag6,
		             lag(ts) OVER (PARTITION BY pid ORDER BY u7) lag7,
		             lag(ts) OVER (PARTITION BY pid ORDER BY u8) lag8 FROM par) s});
	is($back, '0 0 0', "$m: parallel: within each process, order by value is order by clock_timestamp()");
}

load_checks('preload');
if ($major >= 17)
{
	$node->stop;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = ''");
	$node->start;
	is($node->safe_psql('postgres', 'SELECT DISTINCT storage FROM uuidx_generator_state()'),
		'dsm_registry', 'not preloaded: the state is in the DSM registry');
	load_checks('dsm');
}

$node->stop;
done_testing();
