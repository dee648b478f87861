# uuidx.node_id (PGC_SUSET) cannot be set by an ordinary user through a
# placeholder.  On a server that does not preload uuidx, a session that has
# not loaded the library yet can SET any uuidx.* name: PostgreSQL keeps it as
# a placeholder and applies it when the library defines the setting.  For an
# ordinary role it must then be refused (a WARNING, the value dropped), or a
# user could choose the node bits of v8 values and forge collisions with
# another server's.  A superuser doing the same does get the value, so the
# test can tell the two apart.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('node_id_placeholder');
$node->init;    # no shared_preload_libraries
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION uuidx;
	CREATE ROLE regress_plain LOGIN;
});

# The node id of a v8 value: bits 70-85.
my $node_bits = q{((('x' || substr(replace(u::text, '-', ''), 17, 8))::bit(32)::int >> 10) & 65535)};

# One fresh session: SET before the library is loaded, then generate 50 v8
# values (which loads it), then report what the setting says.
sub placeholder_session
{
	my ($user) = @_;
	my ($out, $err) = ('', '');
	my $ret = $node->psql('postgres', qq{
		SELECT count(*) FROM pg_settings WHERE name = 'uuidx.node_id';
		SET uuidx.node_id = 7;
		SELECT count(*) FILTER (WHERE $node_bits = 7), count(DISTINCT $node_bits)
		  FROM (SELECT uuid_generate_v8() u FROM generate_series(1, 50)) s;
		SHOW uuidx.node_id;},
		stdout => \$out, stderr => \$err,
		extra_params => [ '-U', $user ]);
	return ($ret, [ split /\n/, $out ], $err);
}

# --- an ordinary role
my ($ret, $out, $err) = placeholder_session('regress_plain');
is($ret, 0, 'ordinary role: SET before load and generating succeed');
note "stderr: $err";
# 0: the library is not loaded in this session yet, so the SET below
# creates a placeholder (fails if the test did not exercise a placeholder).
is($out->[0], '0', 'ordinary role: uuidx.node_id not defined before the library is loaded');
like($err, qr/WARNING:\s+permission denied to set parameter "uuidx\.node_id"/,
	'ordinary role: PostgreSQL warns that the placeholder may not be applied');
my ($sevens, $distinct) = split /\|/, $out->[1];
# Unset node ids are 16 random bits per value: 50 values are all 7 with
# probability 2^-800.  Fails if the placeholder took effect.
ok($sevens < 50 && $distinct > 1,
	"ordinary role: v8 node bits not 7 ($sevens of 50 are 7, $distinct distinct)");
is($out->[2], '-1', 'ordinary role: SHOW uuidx.node_id says -1 after the library loaded');

# --- a superuser, the same steps
($ret, $out, $err) = placeholder_session($node->safe_psql('postgres', 'SELECT current_user'));
is($ret, 0, 'superuser: SET before load and generating succeed');
is($out->[0], '0', 'superuser: uuidx.node_id not defined before the library is loaded');
is($err, '', 'superuser: no warning');
is($out->[1], '50|1', 'superuser: all 50 v8 values carry node id 7');
is($out->[2], '7', 'superuser: SHOW uuidx.node_id says 7');

# --- once loaded, the ordinary role is refused outright
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT uuid_generate_v8() IS NOT NULL;
	SET uuidx.node_id = 7;},
	extra_params => [ '-U', 'regress_plain' ]);
like($err, qr/ERROR:\s+permission denied to set parameter "uuidx\.node_id"/,
	'ordinary role, library loaded: SET uuidx.node_id is an error');

$node->stop;
done_testing();
