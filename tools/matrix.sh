#!/usr/bin/env bash
# make matrix (what CI runs): `make test` on every supported PostgreSQL
# major, on the Debian release that ships it, and the Debian package for
# each, then the PGXN zip.  Steps:
#   15     make test here, on Debian 12's PostgreSQL 15
#   17     make test in a Debian 13 (trixie) root, on its PostgreSQL 17
#   18 19  make test in an unstable root, on its 18 and on experimental's 19
#          (tools/debian-root.sh makes the roots, beside the build cache)
#   18-assert  PostgreSQL 18 built from Debian's source with assertions
#          (tools/build-pg.sh 18, into a cache outside the checkout): the
#          regression and isolation suites and the TAP files that need it:
#          sqlsmith (017), and 015's moves (dump and restore, logical
#          replication, a standby's replay of the mark's WAL) but for its
#          pg_upgrade, which the 17, 18 and 19 steps run from the major
#          before, as Debian ships it
#   build-pg  test/tools/build_pg.t: tools/build-pg.sh and tools/debian-root.sh
#          without network take only pinned, verified files (seeded from the
#          steps before), and runs in a root leave nothing behind;
#          test/tools/core18_words.t: uuidx_core18 errs in 18.6's words
#          (18.6's uuid.sql and uuid.out, from the source step 18-assert fetched)
#   indent pgindent leaves src/ unchanged (Debian's pgindent, in the
#          unstable root)
#   map    test/tools/code_map.t: the objects' call graph has no circle,
#          calls between src/'s folders, and within a folder between its
#          layers, run down DEVELOPMENT.md's map, no file passes 800
#          lines, src/time_range/README names no missing function
#   deb-15 deb-17 deb-18 deb-19  postgresql-NN-uuidx built where step NN
#          ran, installed there, tested by its autopkgtest's test
#          installcheck (the regression suite less its random test, and the
#          isolation suite) against Debian's server and removed again
#          (tools/deb.sh check NN; needs root)
#   dist   the PGXN zip from `make dist`, unpacked elsewhere, where `make test`
#          builds, installs and runs the regression suite, less its random
#          test (REGRESS_RANDOM), and the isolation suite, on PostgreSQL 15:
#          the zip holds the checkout's files, which the steps above test
#          whole
# Steps run two at a time (UUIDX_MATRIX_JOBS), but for those that install
# into this machine's PostgreSQL 15 (15, deb-15, dist), which run one after
# the other, and build-pg, which runs once the steps that fetch what it
# reads have ended.  Each step's output is printed when it ends; the
# summary gives each step's count and time.  In a make test step a TAP
# file that skips as a whole fails the step, but for those named in
# ALLOWED_SKIPS.  Ends with the summed "N passed, N failed"; non-zero exit
# if anything failed.
#
#   UUIDX_MATRIX="18-assert 15 17 18 19 deb-15 deb-17 deb-18 deb-19 indent map dist build-pg"
#                                         the steps to run
#   UUIDX_MATRIX_JOBS=1                   one step at a time
set -uo pipefail
source "$(dirname "$0")/lib.sh"
root=$UUIDX_ROOT
# In CI every warning is an error (the Makefile alone only shows them).
export UUIDX_WERROR=-Werror

# The PGXN distribution: make dist, unpack, make test in the unpacked tree
# (UUIDX_DIST_TESTS: the suites, "regress isolation" unless set).
dist_check() {
	local dir version
	require_packages git unzip || return 1
	dir=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-dist.XXXXXX")
	version=$(make -C "$root" -s --no-print-directory dist | tail -1) || return 1
	say "unpacking $version ($(stat -c %s "$root/$version") bytes) in $dir"
	unzip -q "$root/$version" -d "$dir" && rm -f "$root/$version" || return 1
	UUIDX_TESTS=${UUIDX_DIST_TESTS:-regress isolation} REGRESS_RANDOM= \
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

# The TAP files the assert-enabled 18 runs besides the regression and
# isolation suites.
ASSERT_TAP="test/t/015_moves.pl test/t/017_sqlsmith.pl"

# TAP files a make test step may skip whole, and why: Citus is in no
# Debian release; pg_partman 5 (which takes a time encoder) is not packaged
# for 15 (Debian 12 has 4.7) or 19 (none yet); TimescaleDB only for 17
# (Debian 13, 2.19) and 18 (unstable, 2.31), for 022_neighbours.
declare -A ALLOWED_SKIPS=(
	[15]="012_citus 016_partman 022_neighbours" [17]="012_citus" [18]="012_citus"
	[19]="012_citus 016_partman 022_neighbours"
	[18-assert]="012_citus"
)

# The pg_upgrade of 015 each root step must run, from the major its root
# holds beside the one under test: 015 skips it, and passes, where that
# major is missing or marks columns the newer one refuses (a moved pin
# would do it), which here is a failure.
declare -A UPGRADE_FROM=([17]=15 [18]=17 [19]=18)

# Run STEP, its output (and its count, last) into LOG.
run_step() {
	local step=$1 log=$2 name pg_config old
	case $step in
	15)
		echo "== PostgreSQL 15 (Debian 12)"
		make -C "$root" --no-print-directory test PG_CONFIG="$DEBIAN_PG_CONFIG"
		;;
	18-assert)
		echo "== PostgreSQL 18 with assertions, from source"
		if ! pg_config=$(bash "$root/tools/build-pg.sh" 18 | tail -1) || [ ! -x "$pg_config" ]; then
			echo "could not build PostgreSQL 18 from source"
			echo "0 passed, 1 failed"
			return
		fi
		# (no major before it, for 015's pg_upgrade: this machine's 15 is
		# the steps 15, deb-15 and dist's)
		UUIDX_OLD_PG_CONFIG=none UUIDX_TAP=$ASSERT_TAP \
			make -C "$root" --no-print-directory test PG_CONFIG="$pg_config"
		;;
	[0-9]*)
		name=$(bash "$root/tools/debian-root.sh" name "$step") || { echo "0 passed, 1 failed"; return; }
		echo "== PostgreSQL $step (Debian $name)"
		bash "$root/tools/debian-root.sh" run "$name" \
			make --no-print-directory test PG_CONFIG="/usr/lib/postgresql/$step/bin/pg_config"
		;;
	build-pg)
		echo "== tools/build-pg.sh and tools/debian-root.sh: pinned, verified files only"
		prove_counted "$root/test/tools/build_pg.t" "$root/test/tools/core18_words.t"
		;;
	indent)
		echo "== pgindent"
		bash "$root/tools/pgindent.sh" --check
		;;
	map)
		echo "== the code's map"
		prove_counted "$root/test/tools/code_map.t"
		;;
	deb-[0-9]*)
		echo "== Debian package for PostgreSQL ${step#deb-}"
		bash "$root/tools/deb.sh" check "${step#deb-}"
		;;
	dist)
		echo "== PGXN distribution"
		dist_check
		;;
	*)
		echo "unknown matrix step $step"
		;;
	esac >"$log" 2>&1
}

# The count of a finished step's LOG, with the TAP files it skipped whole
# that it may not skip counted as failures.
step_count() {
	local step=$1 log=$2 line file bad=0
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	[ -n "$line" ] || { echo "did not finish"; return; }
	while read -r file; do
		case " ${ALLOWED_SKIPS[$step]:-} " in
		*" $file "*) ;;
		*) echo "== $step: $file skipped as a whole, which this step may not" >&2; bad=$((bad + 1)) ;;
		esac
	done < <(sed -nE 's|^(\[[0-9:]+\] )?test/t/([0-9]+_[a-z0-9_]+)\.pl \.+ skipped:.*|\2|p' "$log")
	if [ -n "${UPGRADE_FROM[$step]:-}" ] &&
		! grep -qE "^ok [0-9]+ - pg_upgrade from ${UPGRADE_FROM[$step]} to $step," "$log"; then
		echo "== $step: 015 did not run pg_upgrade from ${UPGRADE_FROM[$step]} to $step, which this step must" >&2
		bad=$((bad + 1))
	fi
	set -- $line
	echo "$1 passed, $(($3 + bad)) failed"
}

# Steps that share this machine's PostgreSQL 15, and what build-pg reads.
declare -A LANE=([15]=host15 [deb-15]=host15 [dist]=host15)
declare -A AFTER=([build-pg]="18-assert 17 18 19")

steps=(${UUIDX_MATRIX:-18-assert 15 17 18 19 deb-15 deb-17 deb-18 deb-19 indent map dist build-pg})
jobs=${UUIDX_MATRIX_JOBS:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-matrix.XXXXXX")
# The npm packages every make test step's TAP files need, here once, before
# the roots, which read them here.
install_node_packages
declare -A state=() started=() count=() pid_of=()
for step in "${steps[@]}"; do state[$step]=pending; done

# May STEP start now?
ready() {
	local step=$1 other
	[ "${state[$step]}" = pending ] || return 1
	if [ -n "${LANE[$step]:-}" ]; then
		for other in "${steps[@]}"; do
			[ "${state[$other]}" = running ] && [ "${LANE[$other]:-}" = "${LANE[$step]}" ] && return 1
		done
	fi
	for other in ${AFTER[$step]:-}; do
		case ${state[$other]:-done} in pending | running) return 1 ;; esac
	done
}

finish() {
	local step=$1
	state[$step]=done
	count[$step]=$(step_count "$step" "$work/$step.log")
	cat "$work/$step.log"
	echo "== $step: ${count[$step]} ($(( $(date +%s) - ${started[$step]} )) s)" >&2
	started[$step]=$(( $(date +%s) - ${started[$step]} ))
}

running=0
while :; do
	for step in "${steps[@]}"; do
		[ "$running" -lt "$jobs" ] || break
		ready "$step" || continue
		state[$step]=running
		started[$step]=$(date +%s)
		run_step "$step" "$work/$step.log" &
		pid_of[$!]=$step
		running=$((running + 1))
	done
	[ "$running" = 0 ] && break
	wait -n -p done_pid
	running=$((running - 1))
	finish "${pid_of[$done_pid]}"
done

passed=0
failed=0
for step in "${steps[@]}"; do
	line=${count[$step]}
	echo "== $step: $line ($((${started[$step]} / 60)) min $((${started[$step]} % 60)) s)" >&2
	if [ "$line" = "did not finish" ]; then
		failed=$((failed + 1))
		continue
	fi
	set -- $line
	passed=$((passed + $1))
	failed=$((failed + $3))
done
rm -rf "$work"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
