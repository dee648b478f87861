#!/usr/bin/env bash
# make matrix: `make test` on every supported PostgreSQL major — 15 from
# Debian's packages, 17 and 18 built from Debian's source packages into a
# cache outside the checkout (test/build-pg.sh; later runs reuse it).
# Ends with the summed "N passed, N failed"; non-zero exit if anything failed.
#
#   UUIDX_MATRIX="15 17 18"   the majors to run
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
summary=()

for major in ${UUIDX_MATRIX:-15 17 18}; do
	echo "== PostgreSQL $major" >&2
	if [ "$major" = 15 ]; then
		pg_config=/usr/lib/postgresql/15/bin/pg_config
	elif ! pg_config=$(bash "$root/test/build-pg.sh" "$major" | tail -1) || [ ! -x "$pg_config" ]; then
		echo "could not build PostgreSQL $major" >&2
		failed=$((failed + 1))
		summary+=("$major: build failed")
		continue
	fi
	log=$(mktemp)
	make -C "$root" --no-print-directory test PG_CONFIG="$pg_config" 2>&1 | tee "$log"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
	rm -f "$log"
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		summary+=("$major: the suite did not finish")
		continue
	fi
	summary+=("$major: $line")
	passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
	failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
done

printf '%s\n' "${summary[@]/#/== PostgreSQL }" >&2
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
