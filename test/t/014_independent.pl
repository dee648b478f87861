# uuidx's new formats against independent implementations, from the npm
# registry (installed by make test: see tools/lib.sh):
#  - ulid: its decodeTime() of uuid_to_ulid(v7) is the v7's millisecond for
#    20,000 values, and 20,000 ULIDs it generates come back unchanged
#    through ulid_to_uuid() and uuid_to_ulid(), their time in the first 48
#    bits;
#  - ULID text with Crockford's aliases (I and L for 1, O for 0) and lower
#    case, 20,000 random strings: ulid_to_uuid() gives what base32-decode's
#    Crockford decoder gives, and what ulid's ulidToUUID() gives after its
#    fixULIDBase32(); ulid's ulidToUUID() itself, a strict decoder, refuses
#    exactly the strings with an alias and agrees on the others;
#  - siphash (SipHash-2-4) and uuid: 20,000 masks of v7 values under
#    random keys, recomputed in JavaScript from the mask's definition, are
#    equal, and the uuid package validates each as a version 4 UUID;
#  - typeid-js (TypeID spec v0.3.0) and base32-encode (RFC 4648's
#    base32hex): 20,000 random UUIDs of every version and v6 and v7 keys,
#    with prefixes of each kind: uuid_to_typeid() and uuid_to_base32hex()
#    write what the packages write; 20,000 TypeIDs and base32hex texts the
#    packages write come back through typeid_to_uuid(), typeid_prefix()
#    and base32hex_to_uuid() as the packages read them.
# Skipped, saying why, without node or the packages.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $modules = $ENV{UUIDX_NODE_MODULES} // '';
plan skip_all => 'node is not installed' unless `node --version 2>/dev/null` =~ /^v\d+/;
my @packages = qw(uuid ulid siphash base32-decode typeid-js base32-encode);
plan skip_all => "the npm packages @packages are not all in UUIDX_NODE_MODULES ($modules)"
  unless $modules ne '' && !grep { !-d "$modules/$_" } @packages;

my $n = 20_000;

my $node = PostgreSQL::Test::Cluster->new('independent');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uuidx'");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uuidx');

# Run a JavaScript program with the packages at hand; its output.
sub node_js
{
	my ($program, $input) = @_;
	my ($out, $err);
	local $ENV{NODE_PATH} = $modules;
	IPC::Run::run([ 'node', '-e', $program ], '<' => \$input, '>' => \$out, '2>' => \$err)
	  or die "node failed: $err";
	chomp $out;
	return $out;
}

# The independent SipHash itself, against the paper's reference vectors
# (key 00 01 .. 0f; messages 00 01 .. of length 0, 1, 10 and 15).
is(node_js(q{
	const s = require('siphash');
	const key = [0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c];
	console.log([0, 1, 10, 15].map(n => s.hash_hex(key, new Uint8Array([...Array(n).keys()]))).join(' '));
}, ''), '726fdb47dd0e0e31 74f839c593dc67fd 7a5dbbc594ddb9f3 a129ca6149be45e5',
	"npm's siphash gives SipHash-2-4's published vectors");

# --- ULID text of v7 values: decodeTime() reads the v7's millisecond.
my $rows = $node->safe_psql('postgres', qq{
	SELECT uuid_to_ulid(u) || ' ' || (extract(epoch FROM uuid_timestamp(u)) * 1000)::bigint
	FROM (SELECT uuid_generate_v7() AS u FROM generate_series(1, $n)) s});
is(node_js(q{
	const { decodeTime } = require('ulid');
	let checked = 0, wrong = 0;
	for (const line of require('fs').readFileSync(0, 'utf8').trim().split('\n')) {
		const [text, ms] = line.split(' ');
		checked++;
		if (decodeTime(text) !== Number(ms)) wrong++;
	}
	console.log(`${checked} ${wrong}`);
}, $rows), "$n 0", "ulid's decodeTime() of uuid_to_ulid(v7) is the v7's millisecond, for $n values");

# --- ULIDs the package generates: through ulid_to_uuid() and back
# unchanged, their time in the UUID's first 48 bits.
my $ulids = node_js(qq{
	const { ulid } = require('ulid');
	const out = [];
	for (let i = 0; i < $n; i++) {
		const t = Date.now() - Math.floor(Math.random() * 1e11);
		out.push(ulid(t) + ' ' + t);
	}
	console.log(out.join('\\n'));
}, '');
my $file = $node->basedir . '/ulids.txt';
append_to_file($file, $ulids);
$node->safe_psql('postgres', 'CREATE TABLE js_ulids (t text, ms bigint)');
$node->safe_psql('postgres', "\\copy js_ulids FROM '$file' WITH (DELIMITER ' ')");
is($node->safe_psql('postgres', q{
	SELECT count(*), count(*) FILTER (WHERE uuid_to_ulid(ulid_to_uuid(t)) = t),
	       count(*) FILTER (WHERE ('x' || left(replace(ulid_to_uuid(t)::text, '-', ''), 12))::bit(48)::bigint = ms)
	FROM js_ulids}),
	"$n|$n|$n", "$n ULIDs from the ulid package come back unchanged, with their time in the first 48 bits");

# --- ULID text with Crockford's aliases and lower case, against both
# kinds of decoder.
my $texts = node_js(q{
	const ulid = require('ulid');
	const decode = require('base32-decode');
	const digits = '0123456789ABCDEFGHJKMNPQRSTVWXYZ', aliases = 'IiLlOo';
	const pick = a => a[Math.floor(Math.random() * a.length)];
	const uuid = h => h.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
	const out = [];
	for (let i = 0; i < 20000; i++) {
		// the first character at most 7; some strings with an alias, some lower case
		let t = pick('01234567' + (i % 2 ? aliases : ''));
		for (let c = 1; c < 26; c++)
			t += Math.random() < (i % 2 ? 0.1 : 0) ? pick(aliases) : pick(digits);
		if (i % 3 === 0) t = t.toLowerCase();
		let strict;
		try { strict = ulid.ulidToUUID(t).toLowerCase(); } catch (e) { strict = 'refused'; }
		const fixed = ulid.ulidToUUID(ulid.fixULIDBase32(t)).toLowerCase();
		// 26 characters are 130 bits: six more zeros in front make 160, of
		// which the last 128 are the value
		const crockford = uuid(Buffer.from(decode('000000' + t, 'Crockford')).toString('hex').slice(8));
		out.push([t, /[IiLlOo]/.test(t) ? 't' : 'f', strict, fixed, crockford].join(' '));
	}
	console.log(out.join('\n'));
}, '');
$file = $node->basedir . '/texts.txt';
append_to_file($file, $texts);
$node->safe_psql('postgres', 'CREATE TABLE js_texts (t text, alias bool, strict text, fixed uuid, crockford uuid)');
$node->safe_psql('postgres', "\\copy js_texts FROM '$file' WITH (DELIMITER ' ')");
my ($total, $with_alias, $agree, $refused, $strict_agree) = split /\|/, $node->safe_psql('postgres', q{
	SELECT count(*), count(*) FILTER (WHERE alias),
	       count(*) FILTER (WHERE ulid_to_uuid(t) = crockford AND ulid_to_uuid(t) = fixed),
	       count(*) FILTER (WHERE alias AND strict = 'refused'),
	       count(*) FILTER (WHERE NOT alias AND strict::uuid = ulid_to_uuid(t))
	FROM js_texts});
ok($with_alias > 0 && $with_alias < $total, "$with_alias of $total strings have an alias");
is($agree, $total, "ulid_to_uuid() gives what base32-decode's Crockford decoder and ulid's fixULIDBase32() give, for all $total");
is("$refused $strict_agree", "$with_alias " . ($total - $with_alias),
	"ulid's strict ulidToUUID() refuses every string with an alias and agrees on the others");
# --- Masks: recomputed from their definition with npm's siphash, and
# valid version 4 UUIDs for the uuid package.
$rows = $node->safe_psql('postgres', qq{
	SELECT u || ' ' || encode(k, 'hex') || ' ' || uuid_v7_mask(u, k)
	FROM (SELECT uuid_generate_v7() AS u, uuid_send(gen_random_uuid()) AS k FROM generate_series(1, $n)) s});
is(node_js(q{
	const siphash = require('siphash');
	const { validate, version } = require('uuid');
	const hex = h => Uint8Array.from(h.match(/../g), b => parseInt(b, 16));
	const le32 = (b, i) => (b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24) >>> 0;
	let checked = 0, wrong = 0, not_v4 = 0;
	for (const line of require('fs').readFileSync(0, 'utf8').trim().split('\n')) {
		const [v7, keyhex, mask] = line.split(' ');
		const u = hex(v7.replace(/-/g, '')), k = hex(keyhex);
		// the 74 kept bits, without version and variant: bytes 6 (low
		// nibble), 7, 8 (low 6 bits), 9 to 15
		const kept = Uint8Array.from([u[6] & 0x0f, u[7], u[8] & 0x3f, ...u.slice(9)]);
		const h = siphash.hash([le32(k, 0), le32(k, 4), le32(k, 8), le32(k, 12)], kept);
		const pad = (BigInt(h.h) << 16n) | (BigInt(h.l) >> 16n);
		let time = 0n;
		for (let i = 0; i < 6; i++) time = (time << 8n) | BigInt(u[i]);
		const masked = (time ^ pad).toString(16).padStart(12, '0') +
			(0x40 | (u[6] & 0x0f)).toString(16).padStart(2, '0') + u[7].toString(16).padStart(2, '0') +
			(0x80 | (u[8] & 0x3f)).toString(16).padStart(2, '0') +
			Array.from(u.slice(9), b => b.toString(16).padStart(2, '0')).join('');
		const expected = masked.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
		checked++;
		if (expected !== mask) wrong++;
		if (!validate(mask) || version(mask) !== 4) not_v4++;
	}
	console.log(`${checked} ${wrong} ${not_v4}`);
}, $rows), "$n 0 0",
	"uuid_v7_mask() equals the mask computed with npm's siphash, and the uuid package validates each as version 4, for $n values");

# --- TypeID and base32hex of uuidx's, read and written by the packages.
# Random 128 bits (md5, any version and variant) and v6 and v7 keys; a
# prefix of each kind: none, plain, with "_" inside, 63 characters.
$rows = $node->safe_psql('postgres', qq{
	SELECT p || E'\t' || u || E'\t' || uuid_to_typeid(p, u) || E'\t' || uuid_to_base32hex(u)
	FROM (SELECT (ARRAY['', 'user', 'pre_fix', repeat('z', 63)])[g % 4 + 1] AS p,
	             CASE g % 3 WHEN 0 THEN md5(random()::text)::uuid WHEN 1 THEN uuid_generate_v7() ELSE uuid_generate_v6() END AS u
	      FROM generate_series(1, $n) g) s});
is(node_js(q{
	const { TypeID } = require('typeid-js');
	const encode = require('base32-encode');
	let checked = 0, typeid_wrong = 0, read_wrong = 0, base32hex_wrong = 0;
	for (const line of require('fs').readFileSync(0, 'utf8').trim().split('\n')) {
		const [prefix, uuid, typeid, b32] = line.split('\t');
		checked++;
		// (by bytes: its toUUID() and fromUUID() refuse other versions)
		const bytes = Buffer.from(uuid.replace(/-/g, ''), 'hex');
		if (TypeID.fromUUIDBytes(prefix, bytes).toString() !== typeid) typeid_wrong++;
		const read = TypeID.fromString(typeid);
		if (read.getType() !== prefix || Buffer.from(read.toUUIDBytes()).compare(bytes) !== 0) read_wrong++;
		if (encode(bytes, 'RFC4648-HEX').slice(0, 26) !== b32) base32hex_wrong++;
	}
	console.log(`${checked} ${typeid_wrong} ${read_wrong} ${base32hex_wrong}`);
}, $rows), "$n 0 0 0",
	"typeid-js writes and reads the TypeIDs uuid_to_typeid() writes, and base32-encode writes what uuid_to_base32hex() writes, for $n random UUIDs of every version");

my $typeids = node_js(qq{
	const { TypeID, typeid } = require('typeid-js');
	const encode = require('base32-encode');
	const crypto = require('crypto');
	const prefixes = ['', 'user', 'order_item', 'a'.repeat(63)];
	const out = [];
	for (let i = 0; i < $n; i++) {
		const prefix = prefixes[i % 4];
		// their own v7 keys, and random 128 bits
		const t = i % 2 ? typeid(prefix) : TypeID.fromUUIDBytes(prefix, crypto.randomBytes(16));
		const bytes = Buffer.from(t.toUUIDBytes());
		out.push([prefix, bytes.toString('hex'), t.toString(), encode(bytes, 'RFC4648-HEX')].join('\\t'));
	}
	console.log(out.join('\\n'));
}, '');
$file = $node->basedir . '/typeids.txt';
append_to_file($file, $typeids);
$node->safe_psql('postgres', 'CREATE TABLE js_typeids (prefix text, u uuid, t text, b32 text)');
$node->safe_psql('postgres', "\\copy js_typeids FROM '$file'");
is($node->safe_psql('postgres', q{
	SELECT count(*), count(*) FILTER (WHERE typeid_to_uuid(t) = u AND typeid_to_uuid(t, prefix) = u),
	       count(*) FILTER (WHERE typeid_prefix(t) = prefix AND uuid_to_typeid(prefix, u) = t),
	       count(*) FILTER (WHERE base32hex_to_uuid(b32) = u AND base32hex_to_uuid(left(b32, 26)) = u),
	       count(*) FILTER (WHERE prefix = '')
	FROM js_typeids}),
	"$n|$n|$n|$n|" . $n / 4, "$n TypeIDs and base32hex texts of typeid-js and base32-encode come back through uuidx's readers");

$node->stop;
done_testing();
