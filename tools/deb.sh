#!/usr/bin/env bash
# The Debian package, built the way Debian builds PostgreSQL extensions
# (debian/: pg_buildext, dh --with pgxs).
#
#   tools/deb.sh build   (make deb) install the build dependencies, build the
#                       binary packages in a copy of the tree, and leave them in
#                       build/deb/
#   tools/deb.sh check   (make matrix) build, then install the package with apt,
#                       check dpkg -L, run its autopkgtest (debian/tests:
#                       pg_buildext installcheck against the installed package),
#                       remove it and check its files are gone.  Ends with
#                       "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/lib.sh"
out="$UUIDX_ROOT/build/deb"

build() {
	require_packages dpkg-dev debhelper postgresql-server-dev-all || return 1
	# The rest of Build-Depends, read from debian/control by apt itself.
	say "installing the build dependencies (apt-get build-dep)"
	apt-get build-dep -y -qq "$UUIDX_ROOT" >&2 || return 1
	rm -rf "$out"
	mkdir -p "$out/src"
	copy_tree "$out/src"
	say "dpkg-buildpackage -b in $out/src"
	(cd "$out/src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 || {
		tail -40 "$out/build.log" >&2
		return 1
	}
	ls "$out"/*.deb
}

passed=0
failed=0

case ${1:-} in
build)
	build
	;;
check)
	[ "$(id -u)" = 0 ] || { echo "tools/deb.sh check installs packages: run it as root" >&2; exit 1; }
	check "the package builds" build >/dev/null
	deb=$(ls "$out"/postgresql-15-uuidx_*_amd64.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		echo "$passed passed, $((failed + 1)) failed (no package to install)"
		exit 1
	fi
	say "$(basename "$deb"): $(stat -c %s "$deb") bytes"
	pkg=postgresql-15-uuidx
	files=(/usr/lib/postgresql/15/lib/uuidx.so /usr/share/postgresql/15/extension/uuidx.control
		/usr/share/postgresql/15/extension/uuidx_core18.control)
	for f in "$UUIDX_ROOT"/sql/uuidx--*.sql "$UUIDX_ROOT"/sql/uuidx_core18--*.sql; do
		files+=("/usr/share/postgresql/15/extension/$(basename "$f")")
	done
	check "apt-get install ./$(basename "$deb")" \
		env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall "$deb" >&2
	dpkg -L "$pkg" >&2
	for f in "${files[@]}"; do
		check "dpkg -L $pkg lists $f, and it is there" \
			bash -c 'dpkg -L "$1" | grep -qx "$2" && [ -f "$2" ]' _ "$pkg" "$f"
	done
	# autopkgtest on this machine (null): the package's own installcheck.
	require_packages autopkgtest >&2
	log=$(mktemp)
	autopkgtest --no-built-binaries "$out/src" -- null >"$log" 2>&1
	status=$?
	cat "$log" >&2
	tests_ok=$(count_passed "$log")
	tests_bad=$(count_failed "$log")
	passed=$((passed + tests_ok))
	failed=$((failed + tests_bad))
	check "autopkgtest: installcheck PASS" [ "$status" = 0 ]
	rm -f "$log"
	check "apt-get remove $pkg" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq "$pkg" >&2
	for f in "${files[@]}"; do
		check "$f is gone after the remove" [ ! -e "$f" ]
	done
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	;;
*)
	echo "usage: $0 build|check" >&2
	exit 2
	;;
esac
