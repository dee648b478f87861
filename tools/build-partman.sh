#!/usr/bin/env bash
# tools/build-partman.sh -- pg_partman for a PostgreSQL that tools/build-pg.sh
# built, from Debian's pg-partman source as pinned in tools/debian-sources.txt
# (target pg_partman-<major>), fetched and verified by tools/debian-source.sh,
# built and installed with PGXS into that PostgreSQL.
#
# Usage:  bash tools/build-partman.sh <pg_config>
#
# Does nothing where the installed pg_partman is the pinned version already
# (a stamp in the installation), or where no version is pinned for the
# major (15: Debian's binary postgresql-15-partman is 4.7, which has no time
# encoder for uuid columns; test/t/016_partman.pl says so and skips).  The
# last line printed is the version installed, or "none".
set -euo pipefail
umask 022
PROG=build-partman
die() { echo "[$PROG] ERROR: $*" >&2; exit 1; }
note() { echo "[$PROG] $*" >&2; }
run() { "$@" >>"$LOG" 2>&1; }

[[ $# -eq 1 && -x $1 ]] || die "usage: $0 <pg_config>"
PG_CONFIG=$1
MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
CACHE_ROOT=${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}
CACHE_ROOT=${CACHE_ROOT%/}
source "$(dirname "${BASH_SOURCE[0]}")/debian-source.sh"
TARGET=pg_partman-$MAJOR
if [[ -z $(debian_source_lines "$TARGET") ]]; then
	note "no pg_partman pinned for PostgreSQL $MAJOR"
	echo none
	exit 0
fi
STAMP=$("$PG_CONFIG" --sharedir)/extension/.uuidx-partman
if debian_stamp_current "$STAMP" "$TARGET"; then
	sed -n 's/^version=//p' "$STAMP"
	exit 0
fi
[[ $(id -u) -eq 0 ]] || die "installing into $("$PG_CONFIG" --sharedir) needs root"
mkdir -p "$CACHE_ROOT/logs"
LOG=$CACHE_ROOT/logs/build-partman-$MAJOR.log
: >"$LOG"
note "fetching pg-partman for PostgreSQL $MAJOR, log: $LOG"
debian_source_fetch "$TARGET" "$CACHE_ROOT/src/partman"
note "building $SOURCE_REPORT"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
tar -C "$dir" -xzf "${SOURCE_FILES[0]}"
src=$(find "$dir" -mindepth 1 -maxdepth 1 -type d | head -1)
# A make of its own: MAKEFLAGS and MAKELEVEL of a calling make stay out.
env -u MAKEFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u MFLAGS \
	make -C "$src" -j"$(nproc)" PG_CONFIG="$PG_CONFIG" install >>"$LOG" 2>&1 ||
	{ tail -20 "$LOG" >&2; die "building pg_partman failed (see $LOG)"; }
version=${SOURCE_VERSION%-*}
debian_stamp_write "$STAMP" "$TARGET" "$version"
note "installed pg_partman $version into PostgreSQL $MAJOR"
echo "$version"
