#!/usr/bin/env bash
# make test: install what is missing, build and install uuidx, then run the
# whole suite on throwaway servers: regression (pg_regress), isolation
# (pg_isolation_regress) and TAP (prove).  Ends with "N passed, N failed" and
# exits non-zero if anything failed.
#
#   PG_CONFIG=/path/to/pg_config   test against another PostgreSQL
#   UUIDX_TESTS="regress isolation tap"   run only some parts
#   UUIDX_TAP="t/002_clock_faults.pl"     run only some TAP files
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# Even when nothing can run, the last line says so.
require_build_packages || { echo "0 passed, 1 failed (could not install the packages the build needs)"; exit 1; }
build_and_install || { echo "0 passed, 1 failed (could not build and install uuidx)"; exit 1; }

work=$(make_workdir test)
cp -r "$UUIDX_ROOT/test" "$work/"
[ "$(id -u)" = 0 ] && chown -R postgres: "$work"
parts=${UUIDX_TESTS:-regress isolation tap}
passed=0
failed=0

# Test names in DIR with suffix EXT, leaving out those whose name ends in
# _pgNN when this server is older than NN (features of newer majors).
tests_for_this_server() {
	local name need
	for f in "$1"/*"$2"; do
		name=$(basename "$f" "$2")
		need=$(echo "$name" | sed -nE 's/.*_pg([0-9]+)$/\1/p')
		if [ -n "$need" ] && [ "$PG_MAJOR" -lt "$need" ]; then
			continue
		fi
		printf '%s ' "$name"
	done
}

# Count a pg_regress-style log: PostgreSQL 15 prints "test x ... ok",
# 16 and later print "ok 1 - x" / "not ok 1 - x".
count_regress_log() {
	local log=$1 status=$2 diffs=$3 ok bad
	ok=$(grep -cE '^ok [0-9]+|\.\.\. ok' "$log")
	bad=$(grep -cE '^not ok [0-9]+|\.\.\. (FAILED|failed)' "$log")
	if [ "$status" != 0 ] && [ "$bad" = 0 ]; then
		bad=1	# the harness itself failed
		cat "$log" >&2
	fi
	passed=$((passed + ok))
	failed=$((failed + bad))
	if [ "$bad" != 0 ] && [ -f "$diffs" ]; then
		sed -n '1,300p' "$diffs" >&2
	fi
	return 0
}

cd "$work"

if [[ " $parts " == *" regress "* ]]; then
	say "regression tests (pg_regress, uuidx preloaded)"
	tests=$(tests_for_this_server test/sql .sql)
	"${AS_PG[@]}" "$PG_PGXS_DIR/test/regress/pg_regress" \
		--bindir="$PG_BINDIR" \
		--temp-instance="$work/regress-instance" \
		--temp-config="$work/test/preload.conf" \
		--inputdir="$work/test" --outputdir="$work/regress" \
		--dbname=contrib_regression --load-extension=uuidx \
		--encoding=UTF8 --no-locale \
		$tests >"$work/regress.log" 2>&1
	status=$?
	cat "$work/regress.log" >&2
	count_regress_log "$work/regress.log" $status "$work/regress/regression.diffs"
fi

if [[ " $parts " == *" isolation "* ]]; then
	say "isolation tests (pg_isolation_regress, uuidx preloaded)"
	specs=$(tests_for_this_server test/specs .spec)
	"${AS_PG[@]}" "$PG_PGXS_DIR/test/isolation/pg_isolation_regress" \
		--bindir="$PG_BINDIR" \
		--temp-instance="$work/isolation-instance" \
		--temp-config="$work/test/preload.conf" \
		--inputdir="$work/test" --outputdir="$work/isolation" \
		--dbname=isolation_regression --load-extension=uuidx \
		$specs >"$work/isolation.log" 2>&1
	status=$?
	cat "$work/isolation.log" >&2
	count_regress_log "$work/isolation.log" $status "$work/isolation/regression.diffs"
fi

if [[ " $parts " == *" tap "* ]]; then
	cd "$work/test"
	"${AS_PG[@]}" mkdir -p "$work/tap/tmp_check/log"
	for t in ${UUIDX_TAP:-t/*.pl}; do
		say "TAP $t"
		log="$work/$(basename "$t" .pl).tap.log"
		"${AS_PG[@]}" env PATH="$PG_BINDIR:$PATH" TESTDIR="$work/tap" \
			TESTLOGDIR="$work/tap/tmp_check/log" TESTDATADIR="$work/tap/tmp_check" \
			PG_REGRESS="$PG_PGXS_DIR/test/regress/pg_regress" \
			PG_CONFIG="$PG_CONFIG" PG_MAJOR="$PG_MAJOR" \
			prove --verbose -I "$PG_PGXS_DIR/test/perl" -I "$work/test" "$t" >"$log" 2>&1
		status=$?
		cat "$log" >&2
		ok=$(grep -cE '^ok [0-9]+' "$log")
		bad=$(grep -cE '^not ok [0-9]+' "$log")
		if [ $status != 0 ] && [ "$bad" = 0 ]; then bad=1; fi
		passed=$((passed + ok))
		failed=$((failed + bad))
	done
	cd "$work"
fi

if [ "$failed" = 0 ]; then
	cd / && rm -rf "$work"
else
	say "kept $work for inspection (server logs under tap/tmp_check/log and */log)"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
