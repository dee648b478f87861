# Code written for PostgreSQL 18 through a real client from the npm
# registry: Drizzle (drizzle-orm with node-postgres, and drizzle-kit's
# migration generator) declares a table the way its users write for 18,
#   id uuid PRIMARY KEY DEFAULT uuidv7(),
#   ref uuid DEFAULT uuidv4(),
#   at timestamptz GENERATED ALWAYS AS (uuid_extract_timestamp(id)) STORED,
# drizzle-kit emits the CREATE TABLE, and drizzle-orm fills it from four
# connections at once and reads it back.  With uuidx_core18 installed (one
# CREATE EXTENSION ... CASCADE) this runs on every major: the keys are v7,
# distinct, increasing within each connection's sequence of INSERTs, the
# ref v4 (npm's uuid validates both), and at is each key's millisecond as
# JavaScript reads it from the key's first 48 bits, except on 17, whose
# pg_catalog uuid_extract_timestamp() comes first in the search path and
# reads v1 keys only (NULL: the README says so).
# Skipped, saying why, without node or the packages (tools/lib.sh installs
# them).
use strict;
use warnings FATAL => 'all';
use File::Temp qw(tempfile);
use IPC::Run;
use JSON::PP qw(decode_json);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $modules = $ENV{UUIDX_NODE_MODULES} // '';
plan skip_all => 'node is not installed' unless `node --version 2>/dev/null` =~ /^v\d+/;
plan skip_all => "the npm packages drizzle-orm, drizzle-kit, pg and uuid are not in UUIDX_NODE_MODULES ($modules)"
  unless $modules ne '' && -d "$modules/drizzle-orm" && -d "$modules/drizzle-kit" && -d "$modules/pg" && -d "$modules/uuid";

my $node = PostgreSQL::Test::Cluster->new('orm');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
$node->start;
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
$node->safe_psql('postgres', 'CREATE EXTENSION uuidx_core18 CASCADE');

my $program = <<'JS';
const { generateDrizzleJson, generateMigration } = require('drizzle-kit/api');
const { pgTable, uuid, integer, timestamp } = require('drizzle-orm/pg-core');
const { drizzle } = require('drizzle-orm/node-postgres');
const { sql, asc } = require('drizzle-orm');
const { Pool } = require('pg');
const uuidpkg = require('uuid');

const events = pgTable('events', {
  id: uuid('id').primaryKey().default(sql`uuidv7()`),
  ref: uuid('ref').default(sql`uuidv4()`),
  worker: integer('worker').notNull(),
  n: integer('n').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).generatedAlwaysAs(sql`uuid_extract_timestamp(id)`),
});

(async () => {
  const [host, port] = process.argv.slice(1);
  const pool = new Pool({ host, port: Number(port), user: process.env.PGUSER, database: 'postgres', max: 4 });
  const db = drizzle(pool);
  const statements = await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ events }));
  for (const s of statements) await db.execute(sql.raw(s));
  // four connections, each 25 INSERTs of 20 rows, one after the other
  const increasing = await Promise.all([0, 1, 2, 3].map(async (worker) => {
    let last = '', ok = true;
    for (let i = 0; i < 25; i++) {
      const rows = await db.insert(events)
        .values(Array.from({ length: 20 }, (_, k) => ({ worker, n: i * 20 + k })))
        .returning({ id: events.id, n: events.n });
      rows.sort((a, b) => a.n - b.n);
      for (const r of rows) { if (!(r.id > last)) ok = false; last = r.id; }
    }
    return ok;
  }));
  const all = await db.select().from(events).orderBy(asc(events.id));
  const ms = (id) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  console.log(JSON.stringify({
    ddl: statements.join(' ').replace(/\s+/g, ' '),
    rows: all.length,
    distinct: new Set(all.map((r) => r.id)).size,
    v7: all.filter((r) => uuidpkg.validate(r.id) && uuidpkg.version(r.id) === 7).length,
    v4ref: all.filter((r) => uuidpkg.validate(r.ref) && uuidpkg.version(r.ref) === 4).length,
    increasing: increasing.every(Boolean),
    atIsKeyTime: all.filter((r) => r.at !== null && r.at.getTime() === ms(r.id)).length,
    atNull: all.filter((r) => r.at === null).length,
  }));
  await pool.end();
})().catch((e) => { console.error(e); process.exit(1); });
JS

my ($out, $err);
{
	local $ENV{NODE_PATH} = $modules;
	local $ENV{PGUSER} = $node->safe_psql('postgres', 'SELECT current_user');
	IPC::Run::run([ 'node', '-e', $program, $node->host, $node->port ], '>' => \$out, '2>' => \$err)
	  or BAIL_OUT("node failed: $err");
}
note $out;
my %r = %{ decode_json($out) };
like($r{ddl}, qr/"id" uuid PRIMARY KEY DEFAULT uuidv7\(\).*GENERATED ALWAYS AS \(uuid_extract_timestamp\(id\)\) STORED/,
	"drizzle-kit emits the CREATE TABLE with uuidv7() and uuid_extract_timestamp(), which PostgreSQL $major accepts");
is($r{rows}, 2000, 'drizzle-orm inserted 2,000 rows from four connections');
is($r{distinct}, 2000, 'every key distinct');
is($r{v7}, 2000, "every key a v7 (npm's uuid)");
is($r{v4ref}, 2000, "every uuidv4() a v4 (npm's uuid)");
ok($r{increasing}, "each connection's keys increase, INSERT after INSERT");
if ($major == 17)
{
	is($r{atNull}, 2000, "on 17 an unqualified uuid_extract_timestamp() is core's, which reads no v7 key (NULL)");
}
else
{
	is($r{atIsKeyTime}, 2000, "uuid_extract_timestamp(id) is the key's millisecond as JavaScript reads it");
}
# (deparsed with an empty search path: core's unqualified, uuidx_core18's
# schema-qualified)
is($node->safe_psql('postgres', q{
	SET search_path = '';
	SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'public.events'::regclass AND adnum = 1}),
	$major >= 18 ? 'uuidv7()' : 'public.uuidv7()', "the DEFAULT's uuidv7() is " . ($major >= 18 ? "core's" : "uuidx_core18's"));

$node->stop;
done_testing();
