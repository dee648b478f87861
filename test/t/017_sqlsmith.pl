# Random queries from Debian's sqlsmith against uuidx: a schema of uuid
# keys of every version (v7, v6, v4, v1) with B-tree and BRIN indexes, a
# column declared v7 and a table partitioned by range of the key, queried
# (and written) by a role without superuser rights.  sqlsmith builds its
# queries from the catalogue, so uuidx's functions, operators, planner
# support functions and estimators meet arguments and plan shapes no
# hand-written test thinks of.  Most of its queries fail with an ordinary
# ERROR; what must never happen is a crash or, on an assert-enabled build
# (the matrix builds 18 with --enable-cassert), an assertion failure.  The
# run is repeated with the planner pushed to index paths and parallel plans.
#
#   UUIDX_SMITH_QUERIES=2000   queries per pass (make soak runs more)
#   UUIDX_SMITH_SEED=1         sqlsmith's seed for the first pass
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use List::Util qw(max);

plan skip_all => 'sqlsmith is not installed (make test installs Debian\'s package)'
  unless grep { -x "$_/sqlsmith" } split /:/, $ENV{PATH};

my $queries = $ENV{UUIDX_SMITH_QUERIES} // 2000;
my $seed = $ENV{UUIDX_SMITH_SEED} // 1;

my $node = PostgreSQL::Test::Cluster->new('sqlsmith');
$node->init;
# ERRORs are sqlsmith's daily bread: keep them and the statements out of
# the log, which must still show crashes (LOG, with the query that ran)
# and assertion failures (written to stderr).  After a crash the server
# restarts and sqlsmith goes on, so that a run lists every crash it found.
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uuidx'
log_min_messages = log
log_min_error_statement = panic
log_statement = none
restart_after_crash = on
});
$node->start;
note 'debug_assertions = ' . $node->safe_psql('postgres', 'SHOW debug_assertions');

$node->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE TABLE keys_mixed (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
		at timestamptz, span tstzrange, n bigint, note text, raw bytea);
	INSERT INTO keys_mixed
	SELECT CASE i % 4 WHEN 0 THEN uuid_generate_v7() WHEN 1 THEN uuid_generate_v6()
	       WHEN 2 THEN gen_random_uuid() ELSE uuid_v6_to_v1(uuid_generate_v6()) END,
	       now() - i * interval '1 minute', tstzrange(now() - i * interval '1 hour', now()),
	       i, i::text, decode(md5(i::text), 'hex')
	FROM generate_series(1, 400) i;
	CREATE INDEX ON keys_mixed USING brin (id);
	CREATE TABLE keys7 (id uuid PRIMARY KEY DEFAULT uuid_generate_v7()
		CHECK (uuid_version(id) = 7 AND uuid_variant(id) = 2), at timestamptz DEFAULT now());
	INSERT INTO keys7 (id) SELECT uuid_timestamptz_to_v7(now() - i * interval '1 hour')
	FROM generate_series(1, 400) i;
	CREATE TABLE parts (id uuid NOT NULL DEFAULT uuid_generate_v7(), v int) PARTITION BY RANGE (id);
	CREATE TABLE parts_old PARTITION OF parts
		FOR VALUES FROM (MINVALUE) TO (uuid_v7_lower_bound(now() - interval '1 day'));
	CREATE TABLE parts_new PARTITION OF parts
		FOR VALUES FROM (uuid_v7_lower_bound(now() - interval '1 day')) TO (MAXVALUE);
	CREATE INDEX ON parts (id);
	INSERT INTO parts SELECT uuid_timestamptz_to_v7(now() - i * interval '1 minute'), i
	FROM generate_series(1, 400) i;
	ANALYZE;
	CREATE ROLE smith LOGIN;
	GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO smith;
	ALTER ROLE smith SET statement_timeout = '500ms';
	ALTER ROLE smith SET temp_file_limit = '64MB';
});

# The functions uuidx owns, by the names no other function has (not its
# min and max for uuid), to see that the queries reached them.
my @functions = split /\n/, $node->safe_psql('postgres', q{
	WITH ours AS (
		SELECT p.oid, p.proname FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
		WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
		  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidx'))
	SELECT DISTINCT proname FROM ours
	WHERE NOT EXISTS (SELECT FROM pg_proc p WHERE p.proname = ours.proname
	                  AND p.oid NOT IN (SELECT oid FROM ours))});
my $called = join '|', map { quotemeta } @functions;

my $log_offset = -s $node->logfile;
my @passes = (
	[ 'default settings', '' ],
	# Index paths made cheap rather than the others disabled: with
	# enable_seqscan off the planner prices every join order of sqlsmith's
	# large queries alike, and planning alone takes most of the time.
	[ 'index and parallel paths', q{
		ALTER ROLE smith SET random_page_cost = 0.05;
		ALTER ROLE smith SET cpu_index_tuple_cost = 0.0001;
		ALTER ROLE smith SET parallel_setup_cost = 0;
		ALTER ROLE smith SET parallel_tuple_cost = 0;
		ALTER ROLE smith SET min_parallel_table_scan_size = 0;
		ALTER ROLE smith SET min_parallel_index_scan_size = 0;
		ALTER ROLE smith SET max_parallel_workers_per_gather = 1;} ],
);
my $pass_seed = $seed;
for (@passes)
{
	my ($pass, $settings) = @$_;
	$node->safe_psql('postgres', $settings) if $settings;
	my ($out, $err) = ('', '');
	my $target = sprintf 'host=%s port=%d user=smith dbname=postgres', $node->host, $node->port;
	my $ok = eval {
		IPC::Run::run(
			[ 'sqlsmith', "--target=$target", "--seed=$pass_seed", "--max-queries=$queries",
			  '--exclude-catalog', '--dump-all-queries' ],
			'>', \$out, '2>', \$err, IPC::Run::timeout(max(600, $queries / 5)));
	};
	ok($ok, "sqlsmith ran $queries queries (seed $pass_seed, $pass)") or diag $@ || $err;
	my @sent = split /;\n/, $out;
	my $reached = grep { /\b(?:$called)\s*\(/ } @sent;
	my %distinct = map { $_ => 1 } map { /\b($called)\s*\(/g } @sent;
	note sprintf '%d queries sent, %d of them call %d of uuidx\'s %d function names: %s',
	  scalar @sent, $reached, scalar keys %distinct, scalar @functions, join ' ', sort keys %distinct;
	cmp_ok($reached, '>=', $queries / 100, "at least 1% of the queries call uuidx's functions ($pass)");

	my $log = slurp_file($node->logfile, $log_offset);
	$log_offset = -s $node->logfile;
	my @crashes = $log =~ /^(.*(?:TRAP:|terminated by signal|PANIC:).*(?:\n.*Failed process was running:.*)?)/mg;
	is(scalar @crashes, 0, "the log shows no crash and no assertion failure ($pass)") or diag join "\n", @crashes;
	is($node->safe_psql('postgres', 'SELECT uuid_version(uuid_generate_v7())'),
		'7', "the server answers after the run ($pass)");
	$pass_seed++;
}

$node->stop;
done_testing();
