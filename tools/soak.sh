#!/usr/bin/env bash
# make soak: the long tests, not part of CI (test/soak/): many failovers
# under load, the mark on a full disk, and the random differential test of
# time queries (sql/time_range_random.sql) with ten times CI's ranges; then
# the clock faults (test/t/002_clock_faults.pl) with ten times CI's frozen
# burst, and sqlsmith's random queries (test/t/017_sqlsmith.pl) at many
# times CI's count; the random ones from a new seed each run.  As root it
# mounts a 96 MB tmpfs for the full-disk test (where mounting is not
# allowed that test skips, saying so), then runs them through make test's
# TAP suite.
#
#   UUIDX_SOAK_CYCLES=20           failovers (test/soak/failover.pl)
#   UUIDX_SMITH_QUERIES=30000      sqlsmith's queries per pass
#   UUIDX_SMITH_SEED=<the time>    its first seed (the test prints it)
#   UUIDX_RANDOM_RANGES=200        the time test's random ranges
#   UUIDX_RANDOM_SEED=<the time>   its seed, from -1 to 1 (the test prints it)
#   UUIDX_FROZEN_BURST=2000000     values in 002's frozen millisecond
set -uo pipefail
source "$(dirname "$0")/lib.sh"

tmpfs=
if [ "$(id -u)" = 0 ]; then
	tmpfs=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-soak-disk.XXXXXX")
	if mount -t tmpfs -o size=96m,mode=0700 tmpfs "$tmpfs" 2>/dev/null; then
		chown postgres: "$tmpfs"
		trap 'umount "$tmpfs"; rmdir "$tmpfs"' EXIT
	else
		rmdir "$tmpfs"
		tmpfs=
	fi
fi
export UUIDX_SOAK_TMPFS=$tmpfs
export UUIDX_SMITH_QUERIES=${UUIDX_SMITH_QUERIES:-30000}
export UUIDX_SMITH_SEED=${UUIDX_SMITH_SEED:-$(date +%s)}
export UUIDX_FROZEN_BURST=${UUIDX_FROZEN_BURST:-2000000}
tests="test/soak/failover.pl test/soak/full_disk.pl test/soak/time_range_random.pl"
tests+=" test/t/002_clock_faults.pl test/t/017_sqlsmith.pl"
UUIDX_TESTS=tap UUIDX_TAP=$tests bash "$(dirname "$0")/test.sh"
