#!/usr/bin/env bash
# make matrix (what CI runs): `make test` on every supported PostgreSQL major
# (15 from Debian's packages; 17 and 18 built from Debian's source packages
# into a cache outside the checkout by tools/build-pg.sh, reused by later
# runs), then the two distributions:
#   deb    the Debian package built, installed, tested by its autopkgtest and
#          removed again (tools/deb.sh check; needs root)
#   dist   the PGXN zip from `make dist`, unpacked elsewhere, where `make test`
#          builds, installs and runs the regression and isolation suites (on
#          PostgreSQL 15; the zip holds the checkout's files, whose TAP suite
#          step 15 and the package's autopkgtest have run already)
#   indent pgindent leaves src/ unchanged (tools from the PostgreSQL 18
#          source package in the cache, so after step 18)
#   compile-19  uuidx compiled with -Werror against Debian experimental's
#          PostgreSQL 19 packages and its symbols checked against that
#          server's exports (tools/compile-pg.sh): this machine cannot run 19
#   build-pg  test/tools/build_pg.t: tools/build-pg.sh and tools/unpack-pg.sh
#          without network take only pinned, verified files (seeded from
#          step 17's downloads)
# Ends with the summed "N passed, N failed"; non-zero exit if anything failed.
#
#   UUIDX_MATRIX="15 17 build-pg 18 compile-19 indent deb dist"   the steps to run
set -uo pipefail
source "$(dirname "$0")/lib.sh"
root=$UUIDX_ROOT
# In CI every warning is an error (the Makefile alone only shows them).
export UUIDX_WERROR=-Werror
passed=0
failed=0
summary=()

# The PGXN distribution: make dist, unpack, make test in the unpacked tree
# (UUIDX_DIST_TESTS: the suites, "regress isolation" unless set).
dist_check() {
	local dir version
	require_packages git unzip || return 1
	dir=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-dist.XXXXXX")
	version=$(make -C "$root" -s --no-print-directory dist | tail -1) || return 1
	say "unpacking $version ($(stat -c %s "$root/$version") bytes) in $dir"
	unzip -q "$root/$version" -d "$dir" && rm -f "$root/$version" || return 1
	UUIDX_TESTS=${UUIDX_DIST_TESTS:-regress isolation} \
		make -C "$dir/${version%.zip}" --no-print-directory test && rm -rf "$dir"
}

# A TAP file outside PGXS's suites, counted like one; in the matrix, whose
# earlier steps made what it needs, a file that skips whole has failed.
prove_counted() {
	local log status bad
	log=$(mktemp)
	UUIDX_ROOT=$root prove -v "$@" >"$log" 2>&1
	status=$?
	cat "$log"
	bad=$(count_failed "$log")
	[ "$status" != 0 ] && [ "$bad" = 0 ] && bad=1
	if grep -q '^Result: NOTESTS' "$log"; then
		say "$* skipped as a whole: in the matrix that is a failure"
		bad=1
	fi
	echo "$(count_passed "$log") passed, $bad failed"
	rm -f "$log"
}

for step in ${UUIDX_MATRIX:-15 17 build-pg 18 compile-19 indent deb dist}; do
	log=$(mktemp)
	case $step in
	15)
		echo "== PostgreSQL 15" >&2
		make -C "$root" --no-print-directory test PG_CONFIG="$DEBIAN_PG_CONFIG" 2>&1 | tee "$log"
		;;
	[0-9]*)
		echo "== PostgreSQL $step" >&2
		if ! pg_config=$(bash "$root/tools/build-pg.sh" "$step" | tail -1) || [ ! -x "$pg_config" ]; then
			echo "could not build PostgreSQL $step" >&2
			failed=$((failed + 1))
			summary+=("PostgreSQL $step: build failed")
			continue
		fi
		make -C "$root" --no-print-directory test PG_CONFIG="$pg_config" 2>&1 | tee "$log"
		;;
	compile-[0-9]*)
		echo "== compiled against PostgreSQL ${step#compile-}, not run" >&2
		bash "$root/tools/compile-pg.sh" "${step#compile-}" 2>&1 | tee "$log"
		;;
	build-pg)
		echo "== tools/build-pg.sh" >&2
		prove_counted "$root/test/tools/build_pg.t" 2>&1 | tee "$log"
		;;
	indent)
		echo "== pgindent" >&2
		bash "$root/tools/pgindent.sh" --check 2>&1 | tee "$log"
		;;
	deb)
		echo "== Debian package" >&2
		bash "$root/tools/deb.sh" check 2>&1 | tee "$log"
		;;
	dist)
		echo "== PGXN distribution" >&2
		dist_check 2>&1 | tee "$log"
		;;
	*)
		echo "unknown matrix step $step" >&2
		;;
	esac
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	rm -f "$log"
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		summary+=("$step: did not finish")
		continue
	fi
	summary+=("$step: $line")
	passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
	failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
done

printf '== %s\n' "${summary[@]}" >&2
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
