#!/usr/bin/env bash
# PostgreSQL's pgindent over src/, with PostgreSQL's typedefs list plus
# uuidx's own (src/typedefs.list).  pgindent and pg_bsd_indent are not in
# Debian's packages; they come from the PostgreSQL 18 source package that
# tools/build-pg.sh keeps in its cache (run `bash tools/build-pg.sh 18` first,
# or make matrix), and pg_bsd_indent is compiled once into the cache.
#
#   bash tools/pgindent.sh           reindent src/ in place
#   bash tools/pgindent.sh --check   change nothing; show the diff and fail if
#                                   pgindent would change anything (make
#                                   matrix runs this after PostgreSQL 18)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cache=${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}
orig=$(ls "$cache"/src/18/postgresql-18_*.orig.tar.* 2>/dev/null | head -1)
[ -n "$orig" ] || { echo "no PostgreSQL 18 source in $cache/src/18: run bash tools/build-pg.sh 18" >&2; exit 1; }
tools="$cache/pgindent"
version=$(basename "$orig" | sed -E 's/postgresql-18_([^.]+\.[^.]+)\.orig.*/\1/')
if [ ! -x "$tools/bin/pg_bsd_indent" ] || [ "$(cat "$tools/version" 2>/dev/null)" != "$version" ]; then
	say "building pg_bsd_indent from $(basename "$orig")"
	rm -rf "$tools" && mkdir -p "$tools"
	tar -C "$tools" -xf "$orig" --strip-components=3 \
		"postgresql-$version/src/tools/pgindent" "postgresql-$version/src/tools/pg_bsd_indent"
	pg_config18="$cache/18/bin/pg_config"
	mkdir -p "$tools/bin"
	gcc -O1 -I"$tools/pg_bsd_indent" -I"$("$pg_config18" --includedir-server)" \
		-o "$tools/bin/pg_bsd_indent" "$tools"/pg_bsd_indent/*.c \
		-L"$("$pg_config18" --libdir)" -lpgcommon -lpgport
	echo "$version" >"$tools/version"
fi
typedefs=$(tr '\n' ' ' <"$UUIDX_ROOT/src/typedefs.list")
args=(--indent="$tools/bin/pg_bsd_indent" --typedefs="$tools/pgindent/typedefs.list"
	--list-of-typedefs="$typedefs")
files=("$UUIDX_ROOT"/src/*.c "$UUIDX_ROOT"/src/*.h)
if [ "${1:-}" = --check ]; then
	out=$(perl "$tools/pgindent/pgindent" "${args[@]}" --diff "${files[@]}")
	if [ -n "$out" ]; then
		echo "$out"
		echo "pgindent would change the files above: run bash tools/pgindent.sh" >&2
		echo "0 passed, 1 failed"
		exit 1
	fi
	echo "ok - pgindent leaves src/ unchanged"
	echo "1 passed, 0 failed"
else
	perl "$tools/pgindent/pgindent" "${args[@]}" "${files[@]}"
fi
