#!/usr/bin/env bash
# The Debian packages, built the way Debian builds PostgreSQL extensions
# (debian/: pg_buildext, dh --with pgxs), one per PostgreSQL major, each on
# the Debian release that ships the major: 15 on this machine (Debian 12),
# 17 in a Debian 13 (trixie) root, 18 and 19 in an unstable root
# (tools/debian-root.sh; 19 from experimental).
#
#   tools/deb.sh build [MAJOR...]   (make deb) build postgresql-MAJOR-uuidx for
#                       each MAJOR (default 15 17 18 19) into
#                       build/deb/<release>/
#   tools/deb.sh check MAJOR        (make matrix) build it, install it with apt
#                       where it was built, check dpkg -L, run its autopkgtest
#                       test installcheck (debian/tests: pg_buildext installcheck
#                       of the regression suite less its random test and of the
#                       isolation suite, against the installed package and
#                       Debian's server), remove it and
#                       check its files are gone.  Ends with "N passed, N failed".
#
# pg_buildext picks the majors of debian/pgversions that the release
# supports; PG_SUPPORTED_VERSIONS=MAJOR makes that MAJOR, and `pg_buildext
# updatecontrol` writes debian/control for it, in the copy of the tree the
# package is built in (the committed debian/control is Debian 12's).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
out_root="$UUIDX_ROOT/build/deb"

# The Debian release that ships MAJOR, and where it runs: "host" or a root.
release_of() {
	case $1 in
	15) echo bookworm ;;
	17) echo trixie ;;
	18 | 19) echo sid ;;
	*) echo "no Debian release ships PostgreSQL $1 here (15, 17, 18, 19)" >&2; return 1 ;;
	esac
}

# Run "tools/deb.sh ACTION-here MAJOR" where MAJOR's release is: on this
# machine for 15, else in its root, with build/deb/<release> bound at
# /uuidx-out there.
dispatch() {
	local action=$1 major=$2 release
	release=$(release_of "$major") || return 1
	mkdir -p "$out_root/$release"
	if [ "$release" = bookworm ]; then
		bash "$UUIDX_ROOT/tools/deb.sh" "$action-here" "$major" "$out_root/$release"
	else
		UUIDX_ROOT_OUT="$out_root/$release" bash "$UUIDX_ROOT/tools/debian-root.sh" run "$release" \
			bash tools/deb.sh "$action-here" "$major" /uuidx-out
	fi
}

# Build postgresql-MAJOR-uuidx here into OUT; keep the tree it was built
# in as TREE, if given (autopkgtest runs the tests from it).
build_here() {
	local major=$1 out=$2 tree=${3:-} work
	export PG_SUPPORTED_VERSIONS=$major
	require_packages dpkg-dev debhelper postgresql-server-dev-all "postgresql-server-dev-$major" || return 1
	work=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-deb.XXXXXX")
	mkdir "$work/src"
	copy_tree "$work/src"
	(cd "$work/src" && pg_buildext updatecontrol) >&2 || return 1
	# The rest of Build-Depends, read from debian/control by apt itself
	# (the roots have them: their apt has no package lists).
	if ! (cd "$work/src" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
		say "installing the build dependencies (apt-get build-dep)"
		host_apt build-dep -y -qq "$work/src" >&2 || return 1
	fi
	say "dpkg-buildpackage -b for PostgreSQL $major in $work/src"
	(cd "$work/src" && dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1 || {
		tail -40 "$work/build.log" >&2
		return 1
	}
	rm -f "$out"/postgresql-"$major"-uuidx*_*.deb
	cp "$work"/postgresql-"$major"-uuidx*_*.deb "$out"/ || return 1
	if [ -n "$tree" ]; then
		rm -rf "$tree"
		mv "$work/src" "$tree"
	fi
	rm -rf "$work"
	ls "$out"/postgresql-"$major"-uuidx_*.deb
}

build_quiet() { build_here "$@" >/dev/null; }

passed=0
failed=0

# Build, install, test and remove postgresql-MAJOR-uuidx here.
check_here() {
	local major=$1 out=$2 deb pkg log status f tree
	[ "$(id -u)" = 0 ] || { echo "tools/deb.sh check installs packages: run it as root" >&2; return 1; }
	tree=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-deb-tree.XXXXXX")/src
	check "postgresql-$major-uuidx builds" build_quiet "$major" "$out" "$tree"
	deb=$(ls "$out"/postgresql-"$major"-uuidx_*_amd64.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		failed=$((failed + 1))
		echo "not ok - no package to install"
		return
	fi
	say "$(basename "$deb"): $(stat -c %s "$deb") bytes"
	pkg=postgresql-$major-uuidx
	files=("/usr/lib/postgresql/$major/lib/uuidx.so" "/usr/share/postgresql/$major/extension/uuidx.control"
		"/usr/share/postgresql/$major/extension/uuidx_core18.control")
	for f in "$UUIDX_ROOT"/sql/extension/uuidx--*.sql "$UUIDX_ROOT"/sql/extension/uuidx_core18--*.sql; do
		files+=("/usr/share/postgresql/$major/extension/$(basename "$f")")
	done
	# What make install left (make matrix's step 15 runs just before) is not
	# the package's: its scripts would be tested with it.
	remove_installed "/usr/lib/postgresql/$major/bin/pg_config" "$tree"
	check "apt-get install ./$(basename "$deb")" \
		host_apt install -y -qq --reinstall "$deb" >&2
	dpkg -L "$pkg" >&2
	for f in "${files[@]}"; do
		check "dpkg -L $pkg lists $f, and it is there" \
			bash -c 'dpkg -L "$1" | grep -qx "$2" && [ -f "$2" ]' _ "$pkg" "$f"
	done
	# autopkgtest on this system (null): the package's test installcheck, its
	# regression suite less the random test, and the isolation suite,
	# against Debian's server.  (Its tests random and tap are left to
	# Debian's users: make test ran them on this server, built from the same
	# tree, in make matrix's step MAJOR.)
	require_packages autopkgtest >&2
	log=$(mktemp)
	autopkgtest --no-built-binaries --test-name=installcheck "$tree" -- null >"$log" 2>&1
	status=$?
	cat "$log" >&2
	passed=$((passed + $(count_passed "$log")))
	failed=$((failed + $(count_failed "$log")))
	check "autopkgtest: installcheck PASS" [ "$status" = 0 ]
	rm -f "$log"
	check "apt-get remove $pkg" host_apt remove -y -qq "$pkg" >&2
	for f in "${files[@]}"; do
		check "$f is gone after the remove" [ ! -e "$f" ]
	done
	rm -rf "$(dirname "$tree")"
}

case ${1:-} in
build)
	shift
	status=0
	for major in ${@:-15 17 18 19}; do
		dispatch build "$major" || status=1
	done
	exit $status
	;;
check)
	[ $# = 2 ] || { echo "usage: $0 check MAJOR" >&2; exit 2; }
	log=$(mktemp)
	dispatch check "$2" | tee "$log"
	status=${PIPESTATUS[0]}
	# the count is the last line where the package was tested
	grep -qE '^[0-9]+ passed, [0-9]+ failed' "$log" || { echo "0 passed, 1 failed (did not finish)"; status=1; }
	rm -f "$log"
	exit "$status"
	;;
build-here)
	build_here "$2" "$3"
	;;
check-here)
	check_here "$2" "$3"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	;;
*)
	echo "usage: $0 build [MAJOR...] | check MAJOR" >&2
	exit 2
	;;
esac
