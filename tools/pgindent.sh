#!/usr/bin/env bash
# PostgreSQL's pgindent over src/, with PostgreSQL's typedefs list plus
# uuidx's own (src/typedefs.list): Debian's pgindent, pg_bsd_indent and
# typedefs.list of PostgreSQL 18 (postgresql-server-dev-18), in the
# unstable root of tools/debian-root.sh, with this checkout's src/ bound
# there.
#
#   bash tools/pgindent.sh           reindent src/ in place
#   bash tools/pgindent.sh --check   change nothing; show the diff and fail if
#                                   pgindent would change anything (a step
#                                   of make matrix)
set -euo pipefail
bin=/usr/lib/postgresql/18/bin
if [ ! -x "$bin/pgindent" ]; then
	root=$(cd "$(dirname "$0")/.." && pwd)
	UUIDX_ROOT_OUT=$root/src exec bash "$root/tools/debian-root.sh" run sid bash tools/pgindent.sh "$@"
fi
src=/uuidx-out
[ -f "$src/typedefs.list" ] || { echo "no src/ at $src: run bash tools/pgindent.sh" >&2; exit 1; }
args=(--indent="$bin/pg_bsd_indent" --typedefs=/usr/share/postgresql/18/typedefs.list
	--list-of-typedefs="$(tr '\n' ' ' <"$src/typedefs.list")")
mapfile -t files < <(find "$src" -name '*.[ch]' | sort)
if [ "${1:-}" = --check ]; then
	out=$("$bin/pgindent" "${args[@]}" --diff "${files[@]}")
	if [ -n "$out" ]; then
		echo "$out"
		echo "pgindent would change the files above: run bash tools/pgindent.sh" >&2
		echo "0 passed, 1 failed"
		exit 1
	fi
	echo "ok - pgindent leaves src/ unchanged (${#files[@]} files)"
	echo "1 passed, 0 failed"
else
	"$bin/pgindent" "${args[@]}" "${files[@]}"
fi
