#!/usr/bin/env bash
# tools/unpack-pg.sh -- a PostgreSQL from Debian's binary packages,
# unpacked, not installed: the older server test/t/015_moves.pl upgrades
# from, or the headers of a major this machine cannot run, which
# tools/compile-pg.sh compiles against.
#
# Usage:  bash tools/unpack-pg.sh <major> [binary|headers]
#
# Takes the packages pinned in tools/debian-sources.txt (target
# postgresql-<major>-<kind>), fetched and verified by
# tools/debian-source.sh, and unpacks them with dpkg-deb into
#     ${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}/<major>-<kind>
# beside the system's packages, which it leaves alone.
#
# binary (the default): server, client and server-dev packages at one
# version; PostgreSQL finds its files relative to its programs, so the
# unpacked tree runs as it is.  Why not the installed 15: Debian's 15 moves
# with security releases, and 15.20 marks every column with an option that
# 17.11 does not know, which stops any pg_upgrade to it; a pinned 15 keeps
# the test the same from day to day.
#
# headers: server-dev (the headers), client (PGXS), libpq-dev (Debian's
# pg_config, in Perl) and the server (its exports), built by Debian with a
# newer compiler and C library (19: gcc 16, glibc 2.43), whose programs do
# not run here.  pg_config.h says what those have: each such macro is
# probed with this machine's compiler and, where the probe fails, set as
# configure would have set it here.  Its pg_config is Debian's Perl one
# with its paths moved into the tree.
#
# The last line printed is the tree's pg_config; nothing is done when the
# pinned version is unpacked already.
set -euo pipefail
umask 022
PROG=unpack-pg
die() { echo "[$PROG] ERROR: $*" >&2; exit 1; }
note() { echo "[$PROG] $*" >&2; }
run() { "$@" >>"$LOG" 2>&1; }

[[ $# -ge 1 && $# -le 2 && $1 =~ ^[0-9]+$ && ${2:-binary} =~ ^(binary|headers)$ ]] ||
	die "usage: $0 <major> [binary|headers]"
MAJOR=$1
KIND=${2:-binary}
CACHE_ROOT=${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}
CACHE_ROOT=${CACHE_ROOT%/}
source "$(dirname "${BASH_SOURCE[0]}")/debian-source.sh"
TARGET=postgresql-$MAJOR-$KIND
[[ -n $(debian_source_lines "$TARGET") ]] || die "$DEBIAN_SOURCES pins no $TARGET"
ROOT=$CACHE_ROOT/$MAJOR-$KIND
PG_CONFIG=$ROOT/usr/lib/postgresql/$MAJOR/bin/pg_config
[[ $KIND == headers ]] && PG_CONFIG=$ROOT/pg_config
STAMP=$ROOT/.uuidx-unpacked
if debian_stamp_current "$STAMP" "$TARGET" && [[ -x $PG_CONFIG ]]; then
	echo "$PG_CONFIG"
	exit 0
fi
mkdir -p "$CACHE_ROOT/logs"
LOG=$CACHE_ROOT/logs/unpack-pg-$MAJOR-$KIND.log
: >"$LOG"
debian_source_fetch "$TARGET" "$CACHE_ROOT/src/$MAJOR-$KIND"
note "unpacking $SOURCE_REPORT into $ROOT"
rm -rf "$ROOT"
mkdir -p "$ROOT"
for deb in "${SOURCE_FILES[@]}"; do
	dpkg-deb -x "$deb" "$ROOT" || die "dpkg-deb could not unpack $deb"
done
if [[ $KIND == binary ]]; then
	# The programs need the libraries Debian's 15 depends on (installed with it).
	bindir=$("$PG_CONFIG" --bindir)
	if ! "$bindir/postgres" --version >>"$LOG" 2>&1; then
		die "the unpacked postgres does not run; missing libraries: $(ldd "$bindir/postgres" | grep 'not found' | tr -s ' \n' ' ')"
	fi
else
	# A program for each macro of the packages' compiler and C library that
	# compiles here only where this machine has it too.  HAVE_DECL_ macros
	# say 0 when absent; the others are undefined.
	declare -A PROBES=(
		[HAVE_TYPEOF_UNQUAL]='int x; typeof_unqual(x) y; int main(void) { y = x = 0; return y; }'
		[HAVE_MEMSET_EXPLICIT]='#include <string.h>
int main(void) { char b[4]; memset_explicit(b, 0, sizeof(b)); return b[0]; }'
		[HAVE_STRLCAT]='#include <string.h>
int main(void) { char b[4] = ""; return (int) strlcat(b, "a", sizeof(b)); }'
		[HAVE_STRLCPY]='#include <string.h>
int main(void) { char b[4]; return (int) strlcpy(b, "a", sizeof(b)); }'
		[HAVE__CPUIDEX]='#include <cpuid.h>
int main(void) { unsigned int r[4]; __cpuidex((int *) r, 7, 0); return (int) r[0]; }'
	)
	PROBES[HAVE_DECL_STRLCAT]=${PROBES[HAVE_STRLCAT]}
	PROBES[HAVE_DECL_STRLCPY]=${PROBES[HAVE_STRLCPY]}
	header=$ROOT/usr/include/postgresql/$MAJOR/server/pg_config.h
	[[ -f $header ]] || die "no pg_config.h in the unpacked packages ($header)"
	for macro in "${!PROBES[@]}"; do
		grep -qE "^#define $macro 1\$" "$header" || continue
		printf '%s\n' "${PROBES[$macro]}" |
			gcc -std=gnu11 -Werror=implicit-function-declaration -x c -o /dev/null - >>"$LOG" 2>&1 && continue
		note "$macro: this machine's compiler and C library have it not; set as here"
		if [[ $macro == HAVE_DECL_* ]]; then
			sed -i "s|^#define $macro 1\$|#define $macro 0|" "$header"
		else
			sed -i "s|^#define $macro 1\$|/* #undef $macro */|" "$header"
		fi
	done
	[[ -f $ROOT/usr/bin/pg_config ]] || die "no pg_config (libpq-dev's) in the unpacked packages"
	printf '#!/bin/sh\nperl "%s/usr/bin/pg_config" "$@" | sed "s#/usr/#%s/usr/#g"\n' "$ROOT" "$ROOT" >"$PG_CONFIG"
	chmod +x "$PG_CONFIG"
fi
debian_stamp_write "$STAMP" "$TARGET" "$SOURCE_VERSION"
echo "$PG_CONFIG"
