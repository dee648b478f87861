#!/usr/bin/env bash
# tools/compile-pg.sh -- compile and link uuidx against a PostgreSQL major
# that this machine cannot run (19: Debian experimental builds it for a
# newer C library), and check that its server exports every PostgreSQL
# symbol the library needs.
#
# Usage:  bash tools/compile-pg.sh <major>
#
# The packages come unpacked from tools/unpack-pg.sh <major> headers, its
# pg_config.h set for this machine's compiler and C library.  `make` runs
# with -Werror in a copy of the tree, with the Makefile's CFLAGS less the
# options this compiler does not know and without clang's bitcode
# (with_llvm=no).  Every symbol the library leaves undefined must then be
# exported by that major's postgres, or imported by it too (the target's C
# library), or be in a library it links here (this machine's C library).
# Prints TAP lines and "N passed, N failed" (make matrix's step
# compile-<major>).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
fail() { echo "[compile-pg] ERROR: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

[[ $# -eq 1 && $1 =~ ^[0-9]+$ ]] || fail "usage: $0 <major>"
MAJOR=$1
require_packages make gcc binutils perl >/dev/null || fail "make, gcc, binutils and perl are needed"
PG_CONFIG=$(bash "$UUIDX_ROOT/tools/unpack-pg.sh" "$MAJOR" headers | tail -1) && [[ -x $PG_CONFIG ]] ||
	fail "could not unpack PostgreSQL $MAJOR's packages"
ROOT=$(dirname "$PG_CONFIG")
version=$("$PG_CONFIG" --version) || fail "pg_config of the unpacked packages does not run"
say "compiling uuidx against $version ($ROOT), not run: this machine cannot run it"

# The Makefile's CFLAGS, without the options this compiler does not know.
global=$ROOT/usr/lib/postgresql/$MAJOR/lib/pgxs/src/Makefile.global
cflags=()
for flag in $(sed -n 's/^CFLAGS = //p' "$global" | head -1); do
	if gcc -Werror -Wformat "$flag" -x c -c -o /dev/null /dev/null >/dev/null 2>&1; then
		cflags+=("$flag")
	else
		echo "[compile-pg] CFLAGS: $flag is not known to this compiler, left out" >&2
	fi
done

passed=0
failed=0

work=$(mktemp -d "${TMPDIR:-/tmp}/uuidx-compile-$MAJOR.XXXXXX")
copy_tree "$work"
make -C "$work" --no-print-directory clean >/dev/null 2>&1
make -C "$work" --no-print-directory -j"$(nproc)" PG_CONFIG="$PG_CONFIG" with_llvm=no CC=gcc \
	CFLAGS="${cflags[*]}" UUIDX_WERROR=-Werror 2>&1 | grep -E ': (error|warning|note):' >&2
check "every file of src/ compiles with -Werror against $version, and links" [ -f "$work/uuidx.so" ]

postgres=$ROOT/usr/lib/postgresql/$MAJOR/bin/postgres
if [ -f "$work/uuidx.so" ] && [ -f "$postgres" ]; then
	symbols() { nm -D "$@" | awk 'NF { print $NF }' | grep -v ':$' | sed 's/@.*//' | sort -u; }
	# the libraries it links here (the C library)
	mapfile -t libs < <(ldd "$work/uuidx.so" | awk '/=> \// { print $3 }')
	undefined=$(symbols --undefined-only "$work/uuidx.so")
	exported=$(symbols --defined-only "$postgres")
	missing=$(comm -23 <(echo "$undefined") \
		<(sort -u <(echo "$exported") <(symbols --undefined-only "$postgres") <(symbols --defined-only "${libs[@]}")))
	needed=$(comm -12 <(echo "$undefined") <(echo "$exported") | wc -l)
	[ -n "$missing" ] && echo "# not exported by $version's postgres: $missing" >&2
	check "every symbol uuidx needs from PostgreSQL ($needed) is exported by $version's postgres" \
		[ -z "$missing" -a "$needed" -gt 0 ]
else
	check "the symbols of uuidx against $version's postgres" false
fi
rm -rf "$work"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
