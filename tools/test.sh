#!/usr/bin/env bash
# make test: install what is missing, build and install uuidx (and the npm
# packages test/t/014_independent.pl compares with, and uuidx in the major
# before for test/t/015_moves.pl's pg_upgrade), then PGXS's
# `make installcheck` (regression, isolation and TAP suites, each in servers
# of its own) as the postgres OS user in a copy of the tree it can write.
# The three suites run one after the other even when one fails (a single
# `make installcheck` stops at the first failing suite), and the last line
# sums them: "N passed, N failed"; non-zero exit if anything failed.
#
#   PG_CONFIG=/path/to/pg_config          test against another PostgreSQL
#   UUIDX_OLD_PG_CONFIG=/path/to/pg_config  the older major 015_moves.pl upgrades from
#                                         (none: no older major, nothing installed there)
#   UUIDX_TESTS="regress isolation tap"   run only some suites
#   UUIDX_TAP="test/t/002_clock_faults.pl"  run only some TAP files
#   UUIDX_TAP_JOBS=1                      TAP files one at a time (default 2: each
#                                         file's nodes take ports and folders of
#                                         their own, as PostgreSQL::Test::Cluster
#                                         allots them)
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# Even when nothing can run, the last line says so.
require_build_packages || { echo "0 passed, 1 failed (could not install the packages the build needs)"; exit 1; }
# Built in a copy of the tree, where the suites then run: the checkout
# stays as it was, and several majors can be tested from it at once.
work=$(make_workdir test)
copy_tree "$work"
build_and_install "$work" || { echo "0 passed, 1 failed (could not build and install uuidx)"; exit 1; }
install_node_packages
# The major before this one, with this uuidx installed, for
# test/t/015_moves.pl's pg_upgrade: UUIDX_OLD_PG_CONFIG if set, else the
# newest of Debian's PostgreSQL servers (with their PGXS) installed beside
# this one (the Debian roots of tools/debian-root.sh hold 15 beside 17, 17
# beside 18, 18 beside 19).  The test skips that part, saying why, where
# there is none.
UUIDX_OLD_PG_WHY="no Debian PostgreSQL older than $PG_MAJOR is installed beside it (/usr/lib/postgresql/*/bin/pg_config)"
UUIDX_OLD_PG_CONFIG=${UUIDX_OLD_PG_CONFIG:-}
if [ "$UUIDX_OLD_PG_CONFIG" = none ]; then
	UUIDX_OLD_PG_WHY="UUIDX_OLD_PG_CONFIG=none: no older major is to be used"
	UUIDX_OLD_PG_CONFIG=
elif [ -z "$UUIDX_OLD_PG_CONFIG" ]; then
	old_major=0
	for old in /usr/lib/postgresql/*/bin/pg_config; do
		major=${old#/usr/lib/postgresql/}
		major=${major%%/*}
		[[ $major =~ ^[0-9]+$ && $major -lt $PG_MAJOR && $major -gt $old_major ]] || continue
		[ -f "/usr/lib/postgresql/$major/lib/pgxs/src/makefiles/pgxs.mk" ] || continue
		UUIDX_OLD_PG_CONFIG=$old old_major=$major
	done
fi
if [ -x "$UUIDX_OLD_PG_CONFIG" ]; then
	install_into "$UUIDX_OLD_PG_CONFIG" ||
		{ echo "0 passed, 1 failed (could not install uuidx into $UUIDX_OLD_PG_CONFIG)"; exit 1; }
else
	UUIDX_OLD_PG_CONFIG=
fi
export UUIDX_OLD_PG_CONFIG UUIDX_OLD_PG_WHY

[ "$(id -u)" = 0 ] && chown -R postgres: "$work"
passed=0
failed=0

# make installcheck for one suite: the variables of the other two emptied.
installcheck() {
	"${AS_PG[@]}" make -C "$work" --no-print-directory installcheck PG_CONFIG="$PG_CONFIG" "$@"
}

# Add a suite's log to the counts.
count_log() {
	local log=$1 status=$2 ok bad
	ok=$(count_passed "$log")
	bad=$(count_failed "$log")
	if [ "$status" != 0 ] && [ "$bad" = 0 ]; then
		bad=1	# the suite failed without naming a test (a server that did not start, say)
	fi
	passed=$((passed + ok))
	failed=$((failed + bad))
}

for suite in ${UUIDX_TESTS:-regress isolation tap}; do
	log="$work/$suite.log"
	diffs="$work/regression.diffs"
	case $suite in
	regress)
		say "regression tests (make installcheck: REGRESS)"
		installcheck ISOLATION= TAP_TESTS= >"$log" 2>&1
		;;
	isolation)
		say "isolation tests (make installcheck: ISOLATION)"
		installcheck REGRESS= TAP_TESTS= >"$log" 2>&1
		diffs="$work/output_iso/regression.diffs"
		;;
	tap)
		say "TAP tests (make installcheck: TAP_TESTS)"
		installcheck REGRESS= ISOLATION= PROVE_FLAGS="--verbose --timer -j${UUIDX_TAP_JOBS:-2}" \
			${UUIDX_TAP:+PROVE_TESTS="$UUIDX_TAP"} >"$log" 2>&1
		;;
	*)
		echo "unknown suite $suite (regress, isolation, tap)" >&2
		false
		;;
	esac
	status=$?
	cat "$log" >&2
	count_log "$log" $status
	if [ "$status" != 0 ] && [ "$suite" != tap ] && [ -f "$diffs" ]; then
		sed -n '1,300p' "$diffs" >&2
	fi
done

if [ "$failed" = 0 ]; then
	cd / && rm -rf "$work"
else
	say "kept $work for inspection (regression.diffs, output_iso/, tmp_check/log, tmp_check_*/log)"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
