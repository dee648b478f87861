# Shared by tools/test.sh, tools/demo.sh and tools/bench/bench.sh: install what is
# missing, build and install uuidx, and run things as the server's OS user.
# Source it; it defines functions and sets UUIDX_ROOT, PG_CONFIG and AS_PG.

UUIDX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEBIAN_PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
PG_CONFIG=${PG_CONFIG:-$DEBIAN_PG_CONFIG}

say() { printf '== %s\n' "$*" >&2; }

# apt-get on this system, one at a time: make matrix's lanes install what
# they miss at once on a new machine, and dpkg's lock (and apt's lists
# lock, which DPkg::Lock::Timeout does not cover) fail a second apt-get.
host_apt() {
	flock /var/cache/apt/uuidx-apt.lock env DEBIAN_FRONTEND=noninteractive \
		apt-get -o DPkg::Lock::Timeout=600 "$@"
}

# Install Debian packages that are not installed yet (needs root then).
require_packages() {
	local missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	say "installing ${missing[*]}"
	if [ "$(id -u)" != 0 ]; then
		echo "missing packages: ${missing[*]} (run as root, or install them)" >&2
		return 1
	fi
	host_apt update -qq >&2
	host_apt install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# What building uuidx and running its servers and tests needs.
require_build_packages() {
	local pkgs=(make gcc libipc-run-perl faketime sqlsmith strace)
	if [ "$PG_CONFIG" = "$DEBIAN_PG_CONFIG" ]; then
		pkgs+=(postgresql-15 postgresql-server-dev-15 postgresql-contrib)
	fi
	require_packages "${pkgs[@]}"
	if [ ! -x "$PG_CONFIG" ] && ! command -v "$PG_CONFIG" >/dev/null; then
		echo "PG_CONFIG=$PG_CONFIG not found" >&2
		return 1
	fi
	PG_BINDIR=$("$PG_CONFIG" --bindir)
	PG_PGXS_DIR=$(dirname "$("$PG_CONFIG" --pgxs)")/..
	PG_MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
	export PG_CONFIG PG_BINDIR PG_PGXS_DIR PG_MAJOR
}

# Remove the scripts an earlier `make install` left in the installation
# of PG_CONFIG ($1) that the tree in DIR ($2, built) does not have: make
# install adds the tree's scripts but leaves others, and a script of a
# version the tree lacks (from a checkout ahead of it, say) is then offered
# by pg_available_extension_versions and taken by ALTER EXTENSION UPDATE.
# The tree's own files are left for make install to replace, so a make
# test running beside this one never finds them missing.  Files a Debian
# package owns are its package's to remove.
remove_installed() {
	local share f
	share=$("$1" --sharedir)/extension
	for f in "$share"/uuidx--*.sql "$share"/uuidx_core18--*.sql; do
		[ -e "$f" ] && [ ! -e "$2/sql/extension/$(basename "$f")" ] || continue
		command -v dpkg >/dev/null && dpkg -S "$f" >/dev/null 2>&1 && continue
		rm -f "$f"
	done
	return 0
}

# Build and install uuidx from DIR (default: the checkout).
build_and_install() {
	local dir=${1:-$UUIDX_ROOT}
	say "building and installing uuidx for PostgreSQL $PG_MAJOR ($PG_CONFIG)"
	# Always from clean: objects left by a build for another major (a plain
	# `make` in between, say) would otherwise be linked in.  It takes seconds.
	make -C "$dir" -s PG_CONFIG="$PG_CONFIG" clean >&2
	make -C "$dir" -s PG_CONFIG="$PG_CONFIG" >&2
	remove_installed "$PG_CONFIG" "$dir"
	make -C "$dir" -s PG_CONFIG="$PG_CONFIG" install >&2
}

# Build uuidx for another installation (OTHER_PG_CONFIG) in a copy of the
# tree, leaving the checkout's build alone, and install it there.
install_into() {
	local other=$1 dir
	say "installing uuidx into $("$other" --version) ($other)"
	dir=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-install.XXXXXX")
	copy_tree "$dir"
	make -C "$dir" -s PG_CONFIG="$other" >&2 && remove_installed "$other" "$dir" &&
		make -C "$dir" -s PG_CONFIG="$other" install >&2
	local status=$?
	rm -rf "$dir"
	return $status
}

# initdb refuses root: servers and test drivers run as postgres when we are root.
if [ "$(id -u)" = 0 ]; then
	AS_PG=(runuser -u postgres --)
else
	AS_PG=()
fi

# A scratch directory the server's user can write, outside the checkout.
make_workdir() {
	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-$1.XXXXXX")
	chmod 755 "$dir"
	[ "$(id -u)" = 0 ] && chown postgres: "$dir"
	echo "$dir"
}

# Copy the source tree into DIR, without git's files, build output or
# packages: make test runs its suites in such a copy, make deb builds in one.
copy_tree() {
	tar -C "$UUIDX_ROOT" --exclude=.git --exclude=build --exclude='*.o' --exclude='*.so' \
		--exclude='*.bc' --exclude='*.zip' -cf - . | tar -C "$1" -xf -
}

# check DESCRIPTION COMMAND...: one counted check, added to the caller's
# passed and failed.
check() {
	local what=$1; shift
	if "$@"; then
		passed=$((passed + 1)); echo "ok - $what"
	else
		failed=$((failed + 1)); echo "not ok - $what"
	fi
}

# Tests passed and failed in a log: pg_regress on PostgreSQL 15 and prove
# without --verbose print "x ... ok" / "x ... FAILED", pg_regress on 16 and
# later and prove --verbose "ok 1 - x" / "not ok 1 - x".  A skipped TAP test
# ("ok 1 # skip ...") does not count as passed.
count_passed() { grep -E '^ok [0-9]+|\.\. ok( |$)' "$1" | grep -vc '# skip'; }
count_failed() { grep -cE '^not ok [0-9]+|\.\.\. (FAILED|failed)' "$1"; }

# Start a throwaway server: start_server DIR [extra postgresql.conf lines...]
# It listens on a Unix socket in DIR only.
start_server() {
	local dir=$1; shift
	"${AS_PG[@]}" "$PG_BINDIR/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$dir'"
		echo "port = 5432"
		for line in "$@"; do echo "$line"; done
	} >>"$dir/data/postgresql.conf"
	"${AS_PG[@]}" "$PG_BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null
}

stop_server() {
	"${AS_PG[@]}" "$PG_BINDIR/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null 2>&1 || true
}

# The npm packages test/t/014_independent.pl checks uuidx against, and the
# client test/t/020_orm_client.pl runs (Drizzle and node-postgres), pinned,
# in a cache outside the checkout (UUIDX_NPM_CACHE); exports
# UUIDX_NODE_MODULES.  Without node, or without the registry, that test
# skips and says why.
install_node_packages() {
	local cache=${UUIDX_NPM_CACHE:-/var/cache/uuidx-npm}
	local pkgs=(uuid@14.0.3 ulid@3.0.2 siphash@1.2.0 base32-decode@1.0.0 typeid-js@1.2.0 base32-encode@1.2.0 drizzle-orm@0.45.4 drizzle-kit@0.31.11 pg@8.23.1)
	export UUIDX_NODE_MODULES=$cache/node_modules
	[ -f "$cache/.pinned" ] && [ "$(cat "$cache/.pinned")" = "${pkgs[*]}" ] && return 0
	command -v node >/dev/null || require_packages nodejs || return 0
	command -v npm >/dev/null || require_packages npm || return 0
	say "installing ${pkgs[*]} from the npm registry into $cache"
	mkdir -p "$cache" && chmod 755 "$cache" || return 0
	if (cd "$cache" && npm install --no-audit --no-fund --no-save --silent "${pkgs[@]}") >&2; then
		echo "${pkgs[*]}" >"$cache/.pinned"
	fi
	return 0
}
