#!/usr/bin/env bash
# make soak: the long tests, not part of CI (test/soak/): many failovers
# under load, and the mark on a full disk.  As root it mounts a 96 MB tmpfs
# for the full-disk test (where mounting is not allowed that test skips,
# saying so), then runs both through make test's TAP suite.
#
#   UUIDX_SOAK_CYCLES=20   failovers (test/soak/failover.pl)
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
UUIDX_TESTS=tap UUIDX_TAP="test/soak/failover.pl test/soak/full_disk.pl" bash "$(dirname "$0")/test.sh"
