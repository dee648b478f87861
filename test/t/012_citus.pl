# uuidx in a Citus cluster: a coordinator and two workers on loopback, each
# with its own uuidx.node_id, a table distributed by a uuid_generate_v8()
# key and one by a uuid_generate_v7() key.  Rows are written through every
# node at once (pgbench, 4 clients per node) and by every statement kind:
# single-row and multi-row INSERT, INSERT ... SELECT and COPY.  Then: no key
# twice and no row lost; the node id in every v8 key names the node that
# evaluated its DEFAULT, which is the node the statement was sent to (Citus
# must know the distribution column to route a row), except for INSERT ...
# SELECT between distributed tables, which runs on the shards' workers;
# each node's values are strictly increasing in the order one session
# received them; and each node's uuidx_generator_state() holds the
# greatest v8 time it handed out.  Every node writes its high-water mark to
# WAL (uuidx.wal_log_mark).
#
# Needs Citus installed in this PostgreSQL (16 or later), which neither
# make test nor CI does (Citus is not in Debian's archive nor npm; see
# DEVELOPMENT.md).  Skipped otherwise, saying so.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use Time::HiRes qw(time);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $probe = PostgreSQL::Test::Cluster->new('probe');
my $pkglib = $probe->config_data('--pkglibdir');
plan skip_all => "Citus is not installed in this PostgreSQL ($pkglib/citus.so); install it by Citus's own build instructions to run this test"
  unless -f "$pkglib/citus.so";

my $clients = 4;
my $per_insert = 100;
my $tx = $ENV{UUIDX_CITUS_TX} // 125;    # 4 x 125 x 100 = 50,000 rows per node

# The Unix millisecond (bits 0-47) of a v8.
my $ms_of = q{(('x' || substr(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint)};

my %node_id = (coordinator => 1, worker1 => 2, worker2 => 3);
my @names = qw(coordinator worker1 worker2);
my %node;
for my $name (@names)
{
	my $n = PostgreSQL::Test::Cluster->new($name);
	$n->init;
	$n->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'citus,uuidx'
uuidx.wal_log_mark = on
uuidx.node_id = $node_id{$name}
listen_addresses = '127.0.0.1'
citus.node_conninfo = 'sslmode=disable'
citus.shard_count = 8
max_connections = 200
});
	$n->start;
	$n->safe_psql('postgres', 'CREATE EXTENSION citus');
	$node{$name} = $n;
}
my $coord = $node{coordinator};
$coord->safe_psql('postgres', sprintf(q{SELECT citus_set_coordinator_host('127.0.0.1', %d)}, $coord->port));
$coord->safe_psql('postgres', sprintf(q{SELECT citus_add_node('127.0.0.1', %d)}, $node{$_}->port))
  for qw(worker1 worker2);

# CREATE EXTENSION on the coordinator reaches the workers.
$coord->safe_psql('postgres', 'CREATE EXTENSION uuidx');
for my $w (qw(worker1 worker2))
{
	is($node{$w}->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'uuidx'}),
		$coord->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'uuidx'}),
		"CREATE EXTENSION uuidx on the coordinator reached $w");
}

# `via` is the node id of the node the statement was sent to.
for my $v (7, 8)
{
	$coord->safe_psql('postgres', qq{
		CREATE TABLE k$v (id uuid PRIMARY KEY DEFAULT uuid_generate_v$v(),
		                  via integer NOT NULL, kind text NOT NULL, src uuid);
		SELECT create_distributed_table('k$v', 'id');
	});
}

# --- Load through every node at once.
my $t0 = time;
my %load;
for my $name (@names)
{
	my $script = $node{$name}->basedir . '/insert.sql';
	open my $fh, '>', $script or die $!;
	print $fh "INSERT INTO k8 (via, kind) SELECT $node_id{$name}, 'pgbench' FROM generate_series(1, $per_insert);\n";
	print $fh "INSERT INTO k7 (via, kind) SELECT $node_id{$name}, 'pgbench' FROM generate_series(1, $per_insert);\n";
	close $fh;
	my ($out, $err) = ('', '');
	$load{$name} = {
		out => \$out, err => \$err,
		h => IPC::Run::start(
			[ 'pgbench', '-n', '-h', $node{$name}->host, '-p', $node{$name}->port,
			  '-c', $clients, '-j', 2, '-t', $tx, '-f', $script, 'postgres' ],
			'>', \$out, '2>', \$err) };
}
for my $name (@names)
{
	my $l = $load{$name};
	ok($l->{h}->finish, "$name: pgbench exits 0") or diag ${ $l->{err} };
	like(${ $l->{out} }, qr/number of transactions actually processed: @{[ $clients * $tx ]}\//,
		"$name: pgbench processed every transaction");
}
note sprintf('pgbench through 3 nodes, %d rows each into k7 and k8: %.1f s', $clients * $tx * $per_insert, time - $t0);
$t0 = time;

# --- Every statement kind through every node, in one session per node:
# single-row INSERTs (each key returned, to check the session's order),
# one multi-row INSERT, INSERT ... SELECT from the other distributed table,
# and COPY.
my %order;
for my $name (@names)
{
	my ($n, $id) = ($node{$name}, $node_id{$name});
	$order{$name} = $n->safe_psql('postgres', qq{
		CREATE TEMP TABLE got (n serial, v integer, id uuid);
		DO \$\$
		DECLARE u uuid;
		BEGIN
		  FOR i IN 1..500 LOOP
		    INSERT INTO k8 (via, kind) VALUES ($id, 'single') RETURNING id INTO u;
		    INSERT INTO got (v, id) VALUES (8, u);
		    INSERT INTO k7 (via, kind) VALUES ($id, 'single') RETURNING id INTO u;
		    INSERT INTO got (v, id) VALUES (7, u);
		  END LOOP;
		END \$\$;
		SELECT v || ':' || count(*) FILTER (WHERE id <= prev)
		FROM (SELECT v, id, lag(id) OVER (PARTITION BY v ORDER BY n) AS prev FROM got) s
		GROUP BY v ORDER BY v;
	});
	for my $v (7, 8)
	{
		$n->safe_psql('postgres', "INSERT INTO k$v (via, kind) VALUES "
			  . join(', ', map { "($id, 'multi')" } 1 .. 200));
		$n->safe_psql('postgres', "INSERT INTO k$v (via, kind, src) SELECT $id, 'insert_select', id FROM k$v WHERE via = $id AND kind = 'single'");
		my $rows = join('', map { "$id\tcopy\n" } 1 .. 300);
		$n->safe_psql('postgres', "COPY k$v (via, kind) FROM STDIN;\n$rows\\.\n");
	}
}

note sprintf('statement kinds through 3 nodes: %.1f s', time - $t0);
for my $name (@names)
{
	is($order{$name}, "7:0\n8:0", "$name: the keys one session received are strictly increasing (v7, v8)");
}

# --- No key twice, no row lost: per node and statement kind, the rows sent.
my $per_node = $clients * $tx * $per_insert;
my $expect = join("\n", map {
	my $id = $node_id{$_};
	("$id|copy|300", "$id|insert_select|500", "$id|multi|200", "$id|pgbench|$per_node", "$id|single|500")
} @names);
for my $v (7, 8)
{
	is($coord->safe_psql('postgres', "SELECT via, kind, count(*) FROM k$v GROUP BY 1, 2 ORDER BY 1, 2"),
		$expect, "k$v: every row sent through every node arrived, per statement kind");
	is($coord->safe_psql('postgres', "SELECT count(*) - count(DISTINCT id) FROM k$v"), '0',
		"k$v: no key twice");
}

# --- Where the DEFAULT was evaluated: the node id in each v8 key, per
# statement kind, against the node the statement was sent to.  Citus routes
# a row by its key, so it evaluates the key's DEFAULT before routing, on the
# receiving node: single-row and multi-row INSERT and COPY.  INSERT ...
# SELECT from a distributed table (src: the row it was selected from) runs
# the SELECT, DEFAULT included, on the workers holding the source shards and
# then routes the new rows by the keys made there (the coordinator holds no
# shard here).
my $placement_node = join(', ', map { sprintf('(%d, %d)', $node{$_}->port, $node_id{$_}) } @names);
my $where = $coord->safe_psql('postgres', qq{
	SELECT kind || ': ' || count(*) FILTER (WHERE uuid_v8_node_id(id) <> via) || ' of ' || count(*)
	FROM k8 GROUP BY kind ORDER BY kind});
note "v8 keys whose node id is not that of the receiving node, per statement kind:\n$where";
my %sent = (copy => 300, multi => 200, pgbench => $per_node, single => 500);
is($coord->safe_psql('postgres', qq{
	SELECT kind || ': ' || count(*) FILTER (WHERE uuid_v8_node_id(id) <> via) || ' of ' || count(*)
	FROM k8 WHERE kind <> 'insert_select' GROUP BY kind ORDER BY kind}),
	join("\n", map { "$_: 0 of " . (3 * $sent{$_}) } sort keys %sent),
	'single-row and multi-row INSERT, INSERT from a function, COPY: every v8 key carries the node id of the node the statement was sent to');
is($coord->safe_psql('postgres', qq{
	SELECT count(*) FILTER (WHERE uuid_v8_node_id(id) <> m.node_id) || ' of ' || count(*)
	FROM k8
	JOIN pg_dist_shard_placement p ON p.shardid = get_shard_id_for_distribution_column('k8', k8.src)
	JOIN (VALUES $placement_node) AS m (port, node_id) ON m.port = p.nodeport
	WHERE kind = 'insert_select'}),
	'0 of 1500', 'INSERT ... SELECT from a distributed table: every v8 key carries the node id of the worker holding the row it was selected from');

# --- Each node's generator state holds the greatest v8 time it handed out.
for my $name (@names)
{
	my $id = $node_id{$name};
	is($node{$name}->safe_psql('postgres', qq{
		SELECT (SELECT (extract(epoch FROM last_time) * 1000)::bigint FROM uuidx_generator_state() WHERE generator = 'v8')
		     = (SELECT max($ms_of) FROM k8 WHERE uuid_v8_node_id(id) = $id)}),
		't', "$name: uuidx_generator_state() v8 last_time is the newest v8 key with its node id");
}

$node{$_}->stop for @names;
done_testing();
