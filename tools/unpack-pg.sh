#!/usr/bin/env bash
# tools/unpack-pg.sh -- an older PostgreSQL from Debian's binary packages,
# unpacked, not installed: the server test/t/015_moves.pl upgrades from.
#
# Usage:  bash tools/unpack-pg.sh <major>
#
# Takes the packages pinned in tools/debian-sources.txt (target
# postgresql-<major>-binary: server, client and server-dev packages at one
# version, each with its SHA-256 from the signed index), fetched and
# verified by tools/debian-source.sh, and unpacks them with dpkg-deb into
#     ${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}/<major>-binary
# beside the system's packages, which it leaves alone.  PostgreSQL finds
# its files relative to its programs, so the unpacked tree runs as it is.
# Why not the installed 15: Debian's 15 moves with security releases, and
# 15.20 marks every column with an option that 17.11 does not know, which
# stops any pg_upgrade to it; a pinned 15 keeps the test the same from day
# to day.  The last line printed is the unpacked tree's pg_config; nothing
# is done when the pinned version is unpacked already.
set -euo pipefail
umask 022
PROG=unpack-pg
die() { echo "[$PROG] ERROR: $*" >&2; exit 1; }
note() { echo "[$PROG] $*" >&2; }
run() { "$@" >>"$LOG" 2>&1; }

[[ $# -eq 1 && $1 =~ ^[0-9]+$ ]] || die "usage: $0 <major>"
MAJOR=$1
CACHE_ROOT=${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}
CACHE_ROOT=${CACHE_ROOT%/}
source "$(dirname "${BASH_SOURCE[0]}")/debian-source.sh"
TARGET=postgresql-$MAJOR-binary
[[ -n $(debian_source_lines "$TARGET") ]] || die "$DEBIAN_SOURCES pins no $TARGET"
ROOT=$CACHE_ROOT/$MAJOR-binary
PG_CONFIG=$ROOT/usr/lib/postgresql/$MAJOR/bin/pg_config
STAMP=$ROOT/.uuidx-unpacked
if debian_stamp_current "$STAMP" "$TARGET" && [[ -x $PG_CONFIG ]]; then
	echo "$PG_CONFIG"
	exit 0
fi
mkdir -p "$CACHE_ROOT/logs"
LOG=$CACHE_ROOT/logs/unpack-pg-$MAJOR.log
: >"$LOG"
debian_source_fetch "$TARGET" "$CACHE_ROOT/src/$MAJOR-binary"
note "unpacking $SOURCE_REPORT into $ROOT"
rm -rf "$ROOT"
mkdir -p "$ROOT"
for deb in "${SOURCE_FILES[@]}"; do
	dpkg-deb -x "$deb" "$ROOT" || die "dpkg-deb could not unpack $deb"
done
# The programs need the libraries Debian's 15 depends on (installed with it).
bindir=$("$PG_CONFIG" --bindir)
if ! "$bindir/postgres" --version >>"$LOG" 2>&1; then
	die "the unpacked postgres does not run; missing libraries: $(ldd "$bindir/postgres" | grep 'not found' | tr -s ' \n' ' ')"
fi
debian_stamp_write "$STAMP" "$TARGET" "$SOURCE_VERSION"
echo "$PG_CONFIG"
