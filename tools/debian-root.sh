#!/usr/bin/env bash
# tools/debian-root.sh -- Debian releases other than this machine's, as
# roots made with Debian's own mmdebstrap, for the PostgreSQL majors they
# ship: 17 in trixie's (Debian 13), 18 and 19 in unstable's (19 from
# experimental).
#
#   bash tools/debian-root.sh make NAME          make root NAME, if it is missing
#                                                or its pins changed; prints its path
#   bash tools/debian-root.sh run NAME CMD...    run CMD as root in a throwaway
#                                                copy of root NAME, in a copy of
#                                                the checkout (its working directory)
#   bash tools/debian-root.sh fetch NAME         fetch and check NAME's pinned
#                                                packages only (test/tools/build_pg.t)
#   bash tools/debian-root.sh name MAJOR         the root that serves MAJOR
#
# A root lives in ${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}-roots/NAME, beside
# the build cache.  mmdebstrap checks the suites' signed Release files with
# debian-archive-keyring; the PostgreSQL packages are the ones pinned in
# tools/debian-sources.txt (targets postgresql-MAJOR-binary, and the
# extensions users preload beside uuidx: postgresql-MAJOR-partman,
# -timescaledb and so on), fetched and checked against their pinned
# SHA-256 by tools/debian-source.sh, then installed with the suite's other
# packages by apt.  The root's stamp records its recipe and the digest of
# those pins: a root is made anew when either changes, and a half-made one
# is never used.  apt there ignores Valid-Until (the registry's Release
# files are past it).
#
# `run` works in mount, PID and network namespaces of its own: the root
# is the lower layer of an overlay whose upper layer is a tmpfs, with /proc
# of the new PID namespace, the host's /dev (and a /dev/shm of its own),
# the npm packages of tools/lib.sh read-only, and a copy of the checkout
# at /uuidx.  Every mount is the namespace's, so all of them go with it
# when CMD ends, fails or is killed, and so do the servers CMD left
# running; nothing CMD writes reaches the root, except through
# UUIDX_ROOT_OUT, a host folder bound at /uuidx-out.  The network namespace
# has its loopback and nothing else: a server CMD starts on a TCP port
# meets no other run's (two autopkgtests' pg_virtualenv both take
# localhost:5432), and nothing in a run reaches the network (the roots'
# steps need none once the root is made).  Variables UUIDX_* pass into
# the root, but for the host's paths.
set -euo pipefail
umask 022
PROG=debian-root
die() { echo "[$PROG] ERROR: $*" >&2; exit 1; }
note() { echo "[$PROG] $*" >&2; }
run() { "$@" >>"$LOG" 2>&1; }

TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE_ROOT=${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}
CACHE_ROOT=${CACHE_ROOT%/}
ROOTS=$CACHE_ROOT-roots
source "$TOOLS/debian-source.sh"

# Bump when the recipe below changes in a way that must make roots anew.
readonly RECIPE_VERSION=1
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# What building and testing uuidx, and building and testing its package,
# need in every root (the packages' own dependencies come with them).
# postgresql-all (the package's Build-Depends) is installed with the pinned
# packages, which it then depends on.
BASE_PACKAGES=(build-essential perl libipc-run-perl faketime sqlsmith strace nodejs procps
	dpkg-dev debhelper fakeroot autopkgtest)

# A root: the suite it is made of, the suites beside it (apt takes their
# packages only where the root's own suite has none: the older majors'
# libraries), and the pinned PostgreSQL packages installed in it.  Each
# major's root also holds the major before it, for test/t/015_moves.pl's
# pg_upgrade: trixie's 17 upgrades from bookworm's 15 at its pin, sid's 18
# from trixie's 17 at its pin (17.11) and 19 from sid's 18.  The extensions
# are the major's under test only: TimescaleDB in both, pg_hint_plan and
# pg_uuidv7 in sid's (trixie has no pg_uuidv7).
root_spec() {
	case $1 in
	trixie)
		SUITE=trixie EXTRA=(bookworm)
		TARGETS=(postgresql-17-binary postgresql-17-partman postgresql-17-timescaledb postgresql-15-binary) ;;
	sid)
		SUITE=sid EXTRA=(experimental)
		TARGETS=(postgresql-18-binary postgresql-18-partman postgresql-18-timescaledb
			postgresql-18-pg-hint-plan postgresql-18-pg-uuidv7 postgresql-19-binary postgresql-17-before-18) ;;
	*) die "no root named '$1' (trixie, sid)" ;;
	esac
}

root_of_major() {
	case $1 in
	17) echo trixie ;;
	18 | 19) echo sid ;;
	*) die "no Debian root serves PostgreSQL $1 (17: trixie, 18 and 19: sid)" ;;
	esac
}

# What the stamp of root NAME must say for it to be used.
root_key() {
	local target sums=()
	for target in "${TARGETS[@]}"; do
		[[ -n $(debian_source_lines "$target") ]] || die "$DEBIAN_SOURCES pins no $target"
		sums+=("$target=$(debian_pins_sum "$target")")
	done
	echo "recipe=$RECIPE_VERSION suite=$SUITE extra=${EXTRA[*]} mirror=$(debian_mirror) base=${BASE_PACKAGES[*]} pins=${sums[*]}"
}

root_current() {
	[[ -f $1/.uuidx-root ]] && grep -qxF "key=$(root_key)" "$1/.uuidx-root"
}

make_root() {
	local name=$1 dir target deb new status pkg version
	local -a debs=() include=() mirrors=()
	root_spec "$name"
	dir=$ROOTS/$name
	if root_current "$dir"; then
		echo "$dir"
		return 0
	fi
	[[ $(id -u) -eq 0 ]] || die "making a root needs root"
	mkdir -p "$ROOTS" "$CACHE_ROOT/logs"
	# Exclusive: runs in the root hold the lock shared (run_in_root).
	exec 9>"$ROOTS/.lock-$name"
	flock 9
	if root_current "$dir"; then
		exec 9>&-
		echo "$dir"
		return 0
	fi
	LOG=$CACHE_ROOT/logs/root-$name.log
	: >"$LOG"
	local start=$SECONDS
	fetch_pinned
	debs=("${PINNED[@]}")
	command -v mmdebstrap >/dev/null || {
		(source "$TOOLS/lib.sh" && host_apt install -y -qq --no-install-recommends mmdebstrap) >>"$LOG" 2>&1 ||
			die "could not install mmdebstrap (see $LOG)"
	}
	[[ -r $KEYRING ]] || die "$KEYRING missing (package debian-archive-keyring)"
	include=(--include="$(IFS=,; echo "${BASE_PACKAGES[*]}")")
	mirrors=("deb $(debian_mirror) $SUITE main")
	for target in "${EXTRA[@]}"; do mirrors+=("deb $(debian_mirror) $target main"); done
	# A root left by a run that did not finish is never used.
	new=$dir.new
	rm -rf "$new"
	note "making root $name ($SUITE${EXTRA:+, with ${EXTRA[*]} beside it}) in $dir, log: $LOG"
	# In a mount namespace of its own, so that whatever mmdebstrap mounts
	# goes with it, also when it is interrupted.
	status=0
	unshare --mount --propagation private --kill-child -- \
		mmdebstrap --mode=root --variant=minbase --format=directory --keyring="$KEYRING" \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--aptopt='APT::Install-Recommends "false"' \
		--setup-hook="$(extra_priority_hook)" \
		--customize-hook='mkdir "$1/tmp/pinned"' \
		--customize-hook="copy-in ${debs[*]} /tmp/pinned" \
		--customize-hook='chroot "$1" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/pinned/*.deb postgresql-all"' \
		--customize-hook='rm -r "$1/tmp/pinned"' \
		--customize-hook='chroot "$1" dpkg-query -W -f "\${Package} \${Version}\n" >"$1/.uuidx-packages"' \
		"${include[@]}" "$SUITE" "$new" "${mirrors[@]}" >>"$LOG" 2>&1 || status=$?
	if [[ $status != 0 ]]; then
		rm -rf "$new"
		tail -20 "$LOG" >&2
		die "mmdebstrap could not make root $name (exit $status; see $LOG)"
	fi
	# apt installed the pinned files themselves, not other versions.
	for deb in "${debs[@]}"; do
		IFS=_ read -r pkg version _ <<<"$(basename "$deb")"
		grep -qxF "$pkg $version" "$new/.uuidx-packages" ||
			{ rm -rf "$new"; die "root $name has not $pkg $version, which was pinned"; }
	done
	{
		echo "key=$(root_key)"
		echo "made_at=$(date -u +%FT%TZ)"
		echo "make_seconds=$((SECONDS - start))"
		for deb in "${debs[@]}"; do echo "pinned=$(basename "$deb")"; done
	} >"$new/.uuidx-root"
	rm -rf "$dir"
	mv "$new" "$dir"
	exec 9>&-
	note "root $name made in $((SECONDS - start)) s"
	echo "$dir"
}

# Fetch and check the pinned packages of the root root_spec chose: PINNED.
fetch_pinned() {
	local target
	PINNED=()
	for target in "${TARGETS[@]}"; do
		debian_source_fetch "$target" "$CACHE_ROOT/src/$target"
		note "$target: $SOURCE_REPORT"
		PINNED+=("${SOURCE_FILES[@]}")
	done
}

# mmdebstrap's setup hook: the suites beside the root's own at priority 100.
extra_priority_hook() {
	local suite hook='mkdir -p "$1/etc/apt/preferences.d"; : >"$1/etc/apt/preferences.d/uuidx"'
	for suite in "${EXTRA[@]}"; do
		hook+="; printf 'Package: *\\nPin: release n=$suite\\nPin-Priority: 100\\n\\n' >>\"\$1/etc/apt/preferences.d/uuidx\""
	done
	echo "$hook"
}

run_in_root() {
	local name=$1 dir
	shift
	[[ $# -gt 0 ]] || die "usage: $0 run NAME CMD..."
	[[ $(id -u) -eq 0 ]] || die "running in a root needs root"
	root_spec "$name"
	dir=$ROOTS/$name
	mkdir -p "$ROOTS/.run"
	# Shared while CMD runs, so that no make replaces the root under it.
	exec 8>"$ROOTS/.lock-$name"
	flock -s 8
	while ! root_current "$dir"; do
		flock -u 8
		make_root "$name" >/dev/null
		flock -s 8
	done
	if [[ -n ${UUIDX_ROOT_OUT:-} ]]; then
		mkdir -p "$UUIDX_ROOT_OUT"
		UUIDX_ROOT_OUT=$(cd "$UUIDX_ROOT_OUT" && pwd)
	fi
	# The root's /tmp, where the tests' servers and the builds work: on this
	# machine's disk, kept when CMD fails (a kill leaves one, which a run in
	# the root a day later removes).
	mkdir -p "$ROOTS/.tmp"
	find "$ROOTS/.tmp" -mindepth 1 -maxdepth 1 -name "$name.*" -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
	local tmp
	tmp=$(mktemp -d "$ROOTS/.tmp/$name.XXXXXX")
	chmod 1777 "$tmp"
	# (the new network namespace's loopback is brought up with this
	# machine's ip)
	command -v ip >/dev/null || (source "$TOOLS/lib.sh" && host_apt install -y -qq --no-install-recommends iproute2) ||
		die "could not install iproute2, whose ip brings up a run's loopback"
	# (killed, unshare kills the namespace's first process, and with it
	# every process there, and the namespace's mounts go)
	exec unshare --mount --pid --net --fork --kill-child --propagation private -- \
		bash "${BASH_SOURCE[0]}" inside "$dir" "$tmp" "$@"
}

# In the namespaces run_in_root made: the mounts, then CMD in the root.
inside() {
	local dir=$1 tmp=$2 r m=$ROOTS/.run var
	shift 2
	ip link set lo up
	mount -t tmpfs -o "size=${UUIDX_ROOT_TMPFS:-4g},mode=755" uuidx-run "$m"
	mkdir "$m/upper" "$m/work" "$m/root"
	mount -t overlay uuidx-root -o "lowerdir=$dir,upperdir=$m/upper,workdir=$m/work" "$m/root"
	r=$m/root
	mount -t proc proc "$r/proc"
	mount --rbind /dev "$r/dev"
	mount -t tmpfs -o mode=1777 uuidx-shm "$r/dev/shm"
	mount --bind "$tmp" "$r/tmp"
	mkdir -p "$r/uuidx"
	(source "$TOOLS/lib.sh" && copy_tree "$r/uuidx")
	local npm=${UUIDX_NPM_CACHE:-/var/cache/uuidx-npm}
	if [[ -d $npm ]]; then
		mkdir -p "$r/var/cache/uuidx-npm"
		mount --bind "$npm" "$r/var/cache/uuidx-npm"
		mount -o remount,bind,ro "$r/var/cache/uuidx-npm"
	fi
	if [[ -n ${UUIDX_ROOT_OUT:-} ]]; then
		mkdir -p "$r/uuidx-out"
		mount --bind "$UUIDX_ROOT_OUT" "$r/uuidx-out"
	fi
	local -a env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
		LANG=C.UTF-8 TERM=dumb UUIDX_NPM_CACHE=/var/cache/uuidx-npm)
	for var in $(compgen -e); do
		case $var in
		UUIDX_ROOT | UUIDX_PG_CACHE | UUIDX_NPM_CACHE | UUIDX_ROOT_OUT | UUIDX_ROOT_TMPFS) ;;
		UUIDX_*) env+=("$var=${!var}") ;;
		esac
	done
	local status=0
	chroot "$r" /usr/bin/env -i "${env[@]}" bash -c 'cd /uuidx && exec "$@"' _ "$@" || status=$?
	if [[ $status == 0 ]]; then
		rm -rf "$tmp"
	else
		note "kept the root's /tmp for inspection: $tmp"
	fi
	return "$status"
}

case ${1:-} in
make)
	[[ $# -eq 2 ]] || die "usage: $0 make NAME"
	make_root "$2"
	;;
run)
	shift
	run_in_root "$@"
	;;
fetch)
	[[ $# -eq 2 ]] || die "usage: $0 fetch NAME"
	root_spec "$2"
	mkdir -p "$CACHE_ROOT/logs"
	LOG=$CACHE_ROOT/logs/fetch-$2.log
	: >"$LOG"
	fetch_pinned
	printf '%s\n' "${PINNED[@]}"
	;;
name)
	[[ $# -eq 2 ]] || die "usage: $0 name MAJOR"
	root_of_major "$2"
	;;
inside)
	shift
	inside "$@"
	;;
*)
	die "usage: $0 make NAME | run NAME CMD... | fetch NAME | name MAJOR"
	;;
esac
