#!/usr/bin/env bash
# tools/build-pg.sh -- build a private PostgreSQL installation for uuidx tests.
#
# Usage:  bash tools/build-pg.sh 18 [--release | --source-only]
#
# Only what no Debian release's packages give is built (tools/debian-root.sh
# runs the others): 18 with assertions, for sqlsmith and the suites'
# Asserts (make matrix's step 18-assert).
#
# Builds PostgreSQL 18 from Debian's *source* package postgresql-18,
# at the version pinned in tools/debian-sources.txt (or, when that one is not
# served, at a fallback listed there), every file checked against its pinned
# SHA-256 (tools/debian-source.sh), and installs it under
#     ${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}/<major>
# The test matrix's 18 has assertions enabled (for the fuzz test);
# --release builds 18 without them, into <major>-release, for benchmarks
# that compare against core functions at their real speed.  --source-only
# fetches, verifies and unpacks the source and stops (test/tools/build_pg.t).
# The LAST line printed on stdout is the absolute path of that installation's
# pg_config (with --source-only: of the unpacked tree); progress goes to
# stderr, the full build output to a log file in the cache directory.  If a
# complete build is already cached (stamp file present and matching this
# script's build settings and the target's pinned lines) the path is printed
# at once and nothing else is done.  The stamp records the Debian version
# built and how it was verified.
#
# The Debian archive is accessed through a PRIVATE apt configuration (own
# sources file, own lists/cache/state directories); the system's apt sources
# and state are never touched and no trixie/sid binary package is installed.
# Missing build dependencies are installed from the system's (bookworm) repos.
#
# Debian's patches (debian/patches) are NOT applied (dpkg-source --skip-patches):
# several of them relocate bindir/pkglibdir to Debian's multi-version layout,
# and we want a vanilla upstream tree with the conventional <prefix>/bin layout.
#
# Environment knobs (all optional):
#   UUIDX_PG_CACHE       cache root                (default /var/cache/uuidx-pg)
#   UUIDX_PG_JOBS        make parallelism           (default $(nproc))
#   UUIDX_PG_MIRROR      Debian mirror URL          (default: the host used by
#                        this machine's apt sources, else http://deb.debian.org/debian)
#   UUIDX_PG_KEEP_BUILD  1 = keep the build tree after success (default: removed)

set -euo pipefail
umask 022

# The build must not depend on how this script was started.  Started from
# make (`make matrix`), it inherits MAKELEVEL, MAKEFLAGS and MAKEOVERRIDES:
# PostgreSQL's own make then starts at MAKELEVEL 1 and skips its generated
# headers (utils/errcodes.h ...), and variables given on the outer make's
# command line would leak into this build.  DESTDIR, CFLAGS and the like
# from the caller's environment would change what gets built or where it
# goes.  So the script runs again in an environment of its own: PATH, HOME,
# TMPDIR, proxy settings and this script's UUIDX_PG_* knobs, in the C locale
# (so that the compiler's "error:" lines can be found in the log).
if [[ -z ${UUIDX_BUILD_PG_ENV_CLEAN:-} ]]; then
  keep=(UUIDX_BUILD_PG_ENV_CLEAN=1 LC_ALL=C LANG=C
        "PATH=${PATH:-/usr/sbin:/usr/bin:/sbin:/bin}" "HOME=${HOME:-/root}")
  for var in $(compgen -e); do
    case $var in
      TMPDIR|UUIDX_PG_*|http_proxy|https_proxy|no_proxy|HTTP_PROXY|HTTPS_PROXY|NO_PROXY)
        keep+=("$var=${!var}") ;;
    esac
  done
  exec env -i "${keep[@]}" bash "${BASH_SOURCE[0]}" "$@"
fi

# Bump when the build recipe changes in a way that must invalidate caches.
readonly RECIPE_VERSION=4

PROG=build-pg
die() { echo "[$PROG${MAJOR:+ $MAJOR}] ERROR: $*" >&2; exit 1; }
note() { echo "[$PROG${MAJOR:+ $MAJOR}] $*" >&2; }

[[ $# -eq 1 || ( $# -eq 2 && ( $2 == --release || $2 == --source-only ) ) ]] ||
  die "usage: $0 18 [--release | --source-only]"
MAJOR=$1
RELEASE= SOURCE_ONLY=
[[ ${2:-} == --release ]] && RELEASE=1
[[ ${2:-} == --source-only ]] && SOURCE_ONLY=1

case "$MAJOR" in
  18) # 18 doubles as the assert-enabled build used for fuzzing; -Og, as
      # debugging builds of PostgreSQL often are: a fifth less CPU to build
      # than -O2, its suites half again as long (and uuidx, built with its
      # CFLAGS, is compiled at -Og -Werror there).
      EXTRA_CONFIGURE=(--enable-cassert --enable-debug CFLAGS=-Og) ;;
  *)  die "unsupported major version '$MAJOR' (supported: 18)" ;;
esac
[[ -z $RELEASE ]] || EXTRA_CONFIGURE=()
SRCPKG=postgresql-$MAJOR

CACHE_ROOT=${UUIDX_PG_CACHE:-/var/cache/uuidx-pg}
[[ $CACHE_ROOT == /* ]] || die "UUIDX_PG_CACHE must be an absolute path (got '$CACHE_ROOT')"
CACHE_ROOT=${CACHE_ROOT%/}
[[ -n $CACHE_ROOT ]] || die "UUIDX_PG_CACHE must not be /"
PREFIX=$CACHE_ROOT/$MAJOR${RELEASE:+-release}
PG_CONFIG=$PREFIX/bin/pg_config
STAMP=$PREFIX/.uuidx-build-complete

CONFIGURE_ARGS=(--prefix="$PREFIX" --with-openssl --enable-tap-tests
                --with-uuid=e2fs --without-llvm "${EXTRA_CONFIGURE[@]}")
source "$(dirname "${BASH_SOURCE[0]}")/debian-source.sh"
# A build is reused only while the target's pinned lines stay as they were.
BUILD_KEY="recipe=$RECIPE_VERSION pins=$(debian_pins_sum "$SRCPKG") patches=skipped configure=${CONFIGURE_ARGS[*]}"

# ---------------------------------------------------------------- fast path
if [[ -z $SOURCE_ONLY && -f $STAMP && -x $PG_CONFIG ]] && grep -qxF "key=$BUILD_KEY" "$STAMP"; then
  echo "$PG_CONFIG"
  exit 0
fi

# ---------------------------------------------------------------- slow path
[[ $(id -u) -eq 0 ]] || die "a cold build needs root (installs build deps, writes $CACHE_ROOT)"

JOBS=${UUIDX_PG_JOBS:-$(nproc)}
DL_DIR=$CACHE_ROOT/src/$MAJOR           # downloaded source package files (kept)
BUILD_ROOT=$CACHE_ROOT/build/$MAJOR${RELEASE:+-release}     # unpacked + built tree (removed on success)
LOG_DIR=$CACHE_ROOT/logs
LOG=$LOG_DIR/build-$MAJOR${RELEASE:+-release}.log

mkdir -p "$CACHE_ROOT" "$LOG_DIR"
chmod 755 "$CACHE_ROOT"

# One build per major at a time (one lock for both flavours: they share
# the apt and download dirs).
exec 9>"$CACHE_ROOT/.lock-$MAJOR"
if ! flock -n 9; then
  echo "[$PROG $MAJOR] another build of $MAJOR is running; waiting for it..." >&2
  flock 9
fi
# Someone else may have finished the build while we waited.
if [[ -z $SOURCE_ONLY && -f $STAMP && -x $PG_CONFIG ]] && grep -qxF "key=$BUILD_KEY" "$STAMP"; then
  echo "$PG_CONFIG"
  exit 0
fi

: >"$LOG"
START=$SECONDS
CUR_STEP="startup"

step() {
  CUR_STEP=$*
  printf '[%s %s] +%4ds  %s\n' "$PROG" "$MAJOR" $((SECONDS - START)) "$*" >&2
  printf '\n===== [%s] %s =====\n' "$(date -u +%FT%TZ)" "$*" >>"$LOG"
}
on_exit() {
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    {
      echo "[$PROG $MAJOR] FAILED (exit $rc) during step: $CUR_STEP"
      # The first error is the cause; with make -j the log's last lines
      # are often other jobs winding down.
      first=$(grep -n -m1 -E '(^|[[:space:]])(fatal )?error:|\*\*\* ' "$LOG" 2>/dev/null || true)
      if [[ -n $first ]]; then
        echo "[$PROG $MAJOR] first error, at line ${first%%:*} of $LOG:"
        echo "    | ${first#*:}"
      fi
      echo "[$PROG $MAJOR] last lines of $LOG:"
      tail -n 15 "$LOG" 2>/dev/null | cut -c1-240 | sed 's/^/    | /'
      echo "[$PROG $MAJOR] full log: $LOG"
    } >&2
  fi
}
trap on_exit EXIT
# Run a command with its output appended to the log.
run() { "$@" >>"$LOG" 2>&1; }

echo "[$PROG $MAJOR] cold build of $SRCPKG into $PREFIX, log: $LOG" >&2

# ------------------------------------------------------- build dependencies
step "checking build dependencies"
BUILD_DEPS=(build-essential bison flex libreadline-dev zlib1g-dev libssl-dev
            libicu-dev pkg-config uuid-dev libipc-run-perl perl dpkg-dev
            ca-certificates xz-utils bzip2 util-linux
            debian-archive-keyring devscripts debian-keyring curl)
missing=()
for p in "${BUILD_DEPS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  step "installing missing build deps from the system's repos: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Wait for the dpkg lock instead of failing (another step may be installing).
  SYS_APT=(apt-get -q -o DPkg::Lock::Timeout=600)
  if ! run "${SYS_APT[@]}" install -y --no-install-recommends "${missing[@]}"; then
    run "${SYS_APT[@]}" update
    run "${SYS_APT[@]}" install -y --no-install-recommends "${missing[@]}" \
      || die "could not install build deps: ${missing[*]} (see $LOG)"
  fi
fi

# ------------------------------------------------------------------- source
# The pinned version, or a listed fallback, verified (tools/debian-source.sh).
step "fetching $SRCPKG as pinned in $(basename "$DEBIAN_SOURCES")"
debian_source_fetch "$SRCPKG" "$DL_DIR"
DSC=$SOURCE_DSC
[[ -n $DSC ]] || die "$DEBIAN_SOURCES lists no .dsc for $SRCPKG $SOURCE_VERSION"
DEB_VERSION=$SOURCE_VERSION
UP_VERSION=${DEB_VERSION#*:}; UP_VERSION=${UP_VERSION%-*}
echo "[$PROG $MAJOR] building $SOURCE_REPORT" >&2
[[ ${UP_VERSION%%.*} == "$MAJOR" ]] || die "source version $DEB_VERSION is not PostgreSQL $MAJOR"

# ------------------------------------------------------------------- unpack
step "unpacking $(basename "$DSC") (dpkg-source -x --skip-patches)"
# A tree left here is from a build that did not finish (it is removed on
# success): it is never reused, every build starts from the pristine source.
if [[ -e $BUILD_ROOT ]]; then
  echo "[$PROG $MAJOR] removing the unfinished build tree left by an earlier run: $BUILD_ROOT" >&2
fi
rm -rf "$BUILD_ROOT"
mkdir -p "$BUILD_ROOT"
SRC=$BUILD_ROOT/$SRCPKG-$UP_VERSION
run dpkg-source -x --skip-patches "$DSC" "$SRC"
[[ -x $SRC/configure ]] || die "unpacked tree $SRC has no configure script"
if [[ -n $SOURCE_ONLY ]]; then
  echo "$SRC"
  exit 0
fi

# ---------------------------------------------------------------- configure
cd "$SRC"
step "configure ${CONFIGURE_ARGS[*]}"
run ./configure "${CONFIGURE_ARGS[@]}"

# -------------------------------------------------------------------- build
step "make -j$JOBS (server, client programs, libraries)"
run make -j"$JOBS"
step "make -j$JOBS contrib/uuid-ossp contrib/pgcrypto contrib/btree_gist contrib/pg_walinspect contrib/file_fdw src/test/isolation"
run make -j"$JOBS" -C contrib/uuid-ossp
run make -j"$JOBS" -C contrib/pgcrypto
run make -j"$JOBS" -C contrib/btree_gist
run make -j"$JOBS" -C contrib/pg_walinspect
run make -j"$JOBS" -C contrib/file_fdw
run make -j"$JOBS" -C src/test/isolation

# ------------------------------------------------------------------ install
step "installing into $PREFIX"
# No stamp => whatever is in PREFIX is incomplete; start from a clean slate.
case "$PREFIX" in /|"") die "refusing to clean prefix '$PREFIX'";; esac
rm -rf "$PREFIX"
run make install
run make -C contrib/uuid-ossp install
run make -C contrib/pgcrypto install
run make -C contrib/btree_gist install
run make -C contrib/pg_walinspect install
run make -C contrib/file_fdw install
run make -C src/test/regress install     # pgxs/src/test/regress/pg_regress
run make -C src/test/isolation install   # pg_isolation_regress + isolationtester
run make -C src/test/perl install        # PostgreSQL::Test::* for TAP tests

# ------------------------------------------------------------------- verify
step "verifying installation"
[[ -x $PG_CONFIG ]] || die "$PG_CONFIG missing"
PKGLIBDIR=$("$PG_CONFIG" --pkglibdir)
SHAREDIR=$("$PG_CONFIG" --sharedir)
BINDIR=$("$PG_CONFIG" --bindir)
PGXSDIR=$PKGLIBDIR/pgxs
[[ $BINDIR == "$PREFIX/bin" ]] || die "unexpected bindir $BINDIR"
[[ $("$PG_CONFIG" --pgxs) == "$PGXSDIR/src/makefiles/pgxs.mk" ]] \
  || die "unexpected pg_config --pgxs: $("$PG_CONFIG" --pgxs)"
required=(
  "$BINDIR/postgres" "$BINDIR/initdb" "$BINDIR/pg_ctl" "$BINDIR/psql" "$BINDIR/pgbench"
  "$BINDIR/pg_controldata" "$PGXSDIR/src/makefiles/pgxs.mk"
  "$PGXSDIR/src/test/regress/pg_regress"
  "$PGXSDIR/src/test/isolation/pg_isolation_regress"
  "$PGXSDIR/src/test/isolation/isolationtester"
  "$PGXSDIR/src/test/perl/PostgreSQL/Test/Cluster.pm"
  "$PGXSDIR/src/test/perl/PostgreSQL/Test/Utils.pm"
  "$PKGLIBDIR/uuid-ossp.so" "$SHAREDIR/extension/uuid-ossp.control"
  "$PKGLIBDIR/pgcrypto.so"  "$SHAREDIR/extension/pgcrypto.control"
  "$PKGLIBDIR/btree_gist.so" "$SHAREDIR/extension/btree_gist.control"
  "$PKGLIBDIR/pg_walinspect.so" "$SHAREDIR/extension/pg_walinspect.control"
  "$PKGLIBDIR/file_fdw.so" "$SHAREDIR/extension/file_fdw.control"
)
for f in "${required[@]}"; do
  [[ -e $f ]] || die "expected file not installed: $f"
  echo "ok: $f" >>"$LOG"
done
"$BINDIR/postgres" --version >>"$LOG" 2>&1 || die "$BINDIR/postgres --version failed"
if ((${#EXTRA_CONFIGURE[@]})); then
  for opt in "${EXTRA_CONFIGURE[@]}"; do
    "$PG_CONFIG" --configure | grep -q -- "$opt" || die "pg_config --configure lacks $opt"
  done
fi
# The server runs as 'postgres' (initdb refuses root): it must be able to
# reach and execute the installation (this catches e.g. a cache under /root).
if id postgres >/dev/null 2>&1; then
  runuser -u postgres -- "$BINDIR/postgres" --version >>"$LOG" 2>&1 \
    || die "user postgres cannot run $BINDIR/postgres (check permissions of $PREFIX and its parents)"
  runuser -u postgres -- test -r "$PGXSDIR/src/makefiles/pgxs.mk" \
    || die "user postgres cannot read the installed PGXS files"
fi

# ------------------------------------------------------------------ cleanup
if [[ ${UUIDX_PG_KEEP_BUILD:-0} != 1 ]]; then
  step "removing build tree $BUILD_ROOT (set UUIDX_PG_KEEP_BUILD=1 to keep it)"
  cd /
  rm -rf "$BUILD_ROOT"
fi

# -------------------------------------------------------------------- stamp
{
  echo "key=$BUILD_KEY"
  echo "debian_source=$SOURCE_REPORT"
  echo "mirror=$(debian_mirror)"
  echo "version=$("$PG_CONFIG" --version)"
  echo "built_at=$(date -u +%FT%TZ)"
  echo "build_seconds=$((SECONDS - START))"
} >"$STAMP.tmp"
mv "$STAMP.tmp" "$STAMP"

step "done: $("$PG_CONFIG" --version) in $((SECONDS - START))s"
echo "$PG_CONFIG"
