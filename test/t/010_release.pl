# One release version everywhere: the Makefile's UUIDX_VERSION, META.json
# (PGXN), debian/changelog, CHANGELOG.md and the loaded library (the
# read-only setting uuidx.library_version, and on 18 pg_get_loaded_modules())
# name the same release; META.json has the keys the PGXN Meta Spec requires;
# the SQL version in uuidx.control is the release's major.minor (or, for a
# patch release that brings SQL, the release's own number), and
# META.json provides the extension at that version with its install script,
# and uuidx_core18 at the same; the README is under 25 KB.
use strict;
use warnings FATAL => 'all';
use File::Basename qw(dirname);
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $root = dirname(__FILE__) . '/../..';
my $semver = qr/^\d+\.\d+\.\d+$/;

my ($release) = slurp_file("$root/Makefile") =~ /^UUIDX_VERSION\s*=\s*(\S+)\s*$/m;
like($release // '', $semver, "the Makefile's UUIDX_VERSION is a release number: " . ($release // 'missing'));

# META.json: it parses, and has every key the Meta Spec (1.0.0) requires.
my $meta = eval { JSON::PP->new->decode(slurp_file("$root/META.json")) };
ok(ref $meta eq 'HASH', 'META.json parses as a JSON object') or diag($@);
$meta //= {};
for my $key (qw(name abstract version maintainer license provides meta-spec))
{
	ok(defined $meta->{$key} && $meta->{$key} ne '', "META.json has $key");
}
is($meta->{name}, 'uuidx', 'META.json name');
is($meta->{'meta-spec'}{version}, '1.0.0', 'META.json meta-spec version');
is($meta->{version}, $release, 'META.json version is the release');
is($meta->{prereqs}{runtime}{requires}{PostgreSQL}, '15.0.0', 'META.json requires PostgreSQL 15 or later');
my $provided = $meta->{provides}{uuidx} // {};

# The SQL version: uuidx.control's default_version, which is the release's
# major.minor (a release that changes only the library keeps the SQL
# version).  META.json names the script the install script is built from.
my ($sql_version) = slurp_file("$root/uuidx.control") =~ /^default_version\s*=\s*'([^']+)'/m;
ok(defined $sql_version, "uuidx.control has a default_version: " . ($sql_version // 'missing'));
$sql_version //= '';
is($provided->{file}, "sql/extension/uuidx.sql", "META.json provides the extension from sql/extension/uuidx.sql");
is($provided->{version}, $sql_version =~ /^\d+\.\d+$/ ? "$sql_version.0" : $sql_version,
	"META.json provides the extension at SQL version $sql_version (as a semantic version)");
ok(-f "$root/$provided->{file}", "$provided->{file} exists") if defined $provided->{file};
# (a patch release that brings SQL of its own installs that: 1.3.1 runs
# SQL 1.3.1; one that changes only the library keeps the SQL of the
# release before: 1.3.2 runs SQL 1.3.1)
my ($rmaj, $rmin, $rpatch) = split /\./, $release;
my ($smaj, $smin, $spatch) = split /\./, $sql_version;
ok(defined $smaj && defined $smin && "$smaj.$smin" eq "$rmaj.$rmin" && ($spatch // 0) <= ($rpatch // 0),
	"release $release runs SQL version $sql_version (its major.minor, or a patch release's up to its own)");

# uuidx_core18 ships with uuidx, at uuidx's SQL version, requiring it;
# META.json provides it from its install script.
my $core18 = slurp_file("$root/uuidx_core18.control");
my ($core18_version) = $core18 =~ /^default_version\s*=\s*'([^']+)'/m;
is($core18_version, $sql_version, "uuidx_core18.control's default_version is uuidx's SQL version");
like($core18, qr/^requires\s*=\s*'uuidx'$/m, 'uuidx_core18 requires uuidx');
my $provided18 = $meta->{provides}{uuidx_core18} // {};
is($provided18->{file}, "sql/extension/uuidx_core18--$sql_version.sql", 'META.json provides uuidx_core18 from its install script');
ok(-f "$root/sql/extension/uuidx_core18--$sql_version.sql", "sql/extension/uuidx_core18--$sql_version.sql exists");
is($provided18->{version}, $provided->{version}, 'META.json provides uuidx_core18 at the same version');

# The Debian package: the first changelog entry is this release.
my ($deb_source, $deb_upstream) = slurp_file("$root/debian/changelog") =~ /\A(\S+) \(([^)-]+)-[^)]+\)/;
is($deb_source, 'uuidx', 'debian/changelog is the uuidx source package');
is($deb_upstream, $release, 'the newest debian/changelog entry packages the release');

# CHANGELOG.md: the newest entry is this release, naming its SQL version.
my ($log_release, $log_rest) = slurp_file("$root/CHANGELOG.md") =~ /^## (\S+) (.*)$/m;
is($log_release, $release, 'the newest CHANGELOG.md entry is the release');
like($log_rest // '', qr/\(SQL \Q$sql_version\E[,)]/, 'it names the SQL version the release installs');

# The README stays short (details go to docs/): under 25 KB.
ok(-s "$root/README.md" < 25_000, 'README.md is under 25,000 bytes: ' . (-s "$root/README.md"));

# The library.  Preloaded, the setting exists from the start.
my $node = PostgreSQL::Test::Cluster->new('release');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
$node->start;
is($node->safe_psql('postgres', 'SHOW uuidx.library_version'), $release, 'the preloaded library reports the release');
my ($rc, $out, $err) = $node->psql('postgres', "SET uuidx.library_version = '0.0.0'");
like($err, qr/parameter "uuidx.library_version" cannot be changed/, 'uuidx.library_version is read-only');
if ($node->pg_version >= 18)
{
	is($node->safe_psql('postgres', q{SELECT version FROM pg_get_loaded_modules() WHERE module_name = 'uuidx'}),
		$release, 'PostgreSQL 18: pg_get_loaded_modules() shows the release');
}

# Not preloaded: the setting appears once the library is loaded, by the
# first call of a uuidx function in the session.
$node->adjust_conf('postgresql.conf', 'shared_preload_libraries', "''");
$node->restart;
$node->safe_psql('postgres', 'CREATE EXTENSION uuidx');
is($node->safe_psql('postgres', q{
	SELECT coalesce(current_setting('uuidx.library_version', true), 'not loaded');
	SELECT uuid_version(uuid_generate_v7());
	SHOW uuidx.library_version}), "not loaded\n7\n$release", 'loaded on first use, the library reports the release');
is($node->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'uuidx'}),
	$sql_version, "CREATE EXTENSION installs SQL version $sql_version");
$node->stop;
done_testing();
