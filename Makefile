# uuidx: a PGXS build.
#
#   make && make install    build and install into the PostgreSQL that pg_config names
#   make installcheck       regression, isolation and TAP tests against the installed uuidx,
#                           each suite in servers of its own (run it as a user initdb accepts)
#
# and the project's targets:
#
#   make demo     install what is needed, build, start a throwaway server, walk through uuidx
#   make test     install what is needed, build, install, make installcheck; "N passed, N failed"
#   make bench    benchmark against core functions on a throwaway server
#   make soak     long tests, not in CI: 20 failovers under load, a full disk
#   make matrix   make test on PostgreSQL 15, 17, 18 and 19 as Debian releases ship them, and
#                 on an assert-enabled 18; pgindent, the Debian packages, the PGXN zip (what CI runs)
#   make deb      the Debian packages postgresql-NN-uuidx_<version>_amd64.deb, in build/deb/<release>/,
#                 for 15 (Debian 12), 17 (13), 18 and 19 (unstable); UUIDX_DEB="17" picks
#   make dist     the PGXN distribution uuidx-<version>.zip, from the committed tree
#
# PG_CONFIG=/path/to/pg_config selects the PostgreSQL to build and test against.

# The release: the library reports it, and META.json, debian/changelog and
# CHANGELOG.md name it (test/t/010_release.pl checks that they agree).  The
# SQL objects have their own version, uuidx.control's default_version: a
# release that changes only the library keeps it (1.0.1 runs the 1.0 SQL).
UUIDX_VERSION = 1.7.0

# uuidx_core18: PostgreSQL 18's names for code written for 18 on 15 to 17,
# a second extension that requires uuidx and calls its library.
EXTENSION = uuidx uuidx_core18
MODULE_big = uuidx
# The C code, a folder per subsystem (DEVELOPMENT.md has the map); files
# include each other's headers from src/ ("order/order.h").
OBJS = \
	src/module.o \
	src/symbols_1_0.o \
	src/layout/clock.o \
	src/layout/layout.o \
	src/generators/generate.o \
	src/generators/name_v8.o \
	src/generators/pg_uuidv7_compat.o \
	src/generators/random_pool.o \
	src/order/admin.o \
	src/order/mark.o \
	src/order/mark_file.o \
	src/order/mark_report.o \
	src/order/mark_wal.o \
	src/order/order.o \
	src/order/state.o \
	src/order/values.o \
	src/order/worker.o \
	src/inspect/base32.o \
	src/inspect/bytea.o \
	src/inspect/inspect.o \
	src/inspect/mask_v7.o \
	src/inspect/minmax.o \
	src/inspect/siphash.o \
	src/inspect/typeid.o \
	src/inspect/ulid.o \
	src/time_range/clauses.o \
	src/time_range/declared.o \
	src/time_range/earlier_sql.o \
	src/time_range/form_calls.o \
	src/time_range/form_order.o \
	src/time_range/forms.o \
	src/time_range/hypertables.o \
	src/time_range/init.o \
	src/time_range/meaning.o \
	src/time_range/paths.o \
	src/time_range/selfuncs.o \
	src/time_range/support.o \
	src/time_range/scan/conditions.o \
	src/time_range/scan/exec.o \
	src/time_range/scan/planner.o
# The SQL objects, in sql/extension/ (sql/ beside it holds the regression
# tests' inputs, where pg_regress reads them).  sql/extension/uuidx.sql is
# the one script edited: it defines the
# current SQL version (default_version in uuidx.control), and the build
# copies it to that version's install script.  The scripts of earlier
# releases stay as they shipped: uuidx--1.0.sql, from which every release
# is reachable, and an upgrade script uuidx--OLD--NEW.sql per release.
# Paths are relative to the source folder, which pgxs.mk prefixes (it
# differs from the current folder in a VPATH build).
UUIDX_SQL_VERSION = $(shell sed -n "s/^default_version = '\(.*\)'$$/\1/p" $(srcdir)/uuidx.control)
DATA_built = sql/extension/uuidx--$(UUIDX_SQL_VERSION).sql
DATA = $(filter-out $(DATA_built),$(patsubst $(srcdir)/%,%,$(wildcard $(srcdir)/sql/extension/uuidx--*.sql $(srcdir)/sql/extension/uuidx_core18--*.sql)))

# Warnings are shown, not fatal: a new compiler or PostgreSQL major must not
# break a package build.  CI (make matrix) sets UUIDX_WERROR=-Werror.
# -Wextra's unused-parameter warning is off: every PG_FUNCTION_ARGS entry
# point and several of PostgreSQL's own inline header functions have
# parameters they do not use.
UUIDX_WERROR ?=
PG_CFLAGS += -Wall -Wextra -Wno-unused-parameter $(UUIDX_WERROR)
PG_CPPFLAGS += -I$(srcdir)/src -DUUIDX_VERSION='"$(UUIDX_VERSION)"'

# Tests.  Every suite runs in servers it starts itself, from the installed
# PostgreSQL's binaries, with uuidx preloaded: pg_regress and
# pg_isolation_regress each in a temporary instance (test/preload.conf),
# the TAP tests in PostgreSQL::Test::Cluster nodes.  Tests whose name ends
# in _pgNN need PostgreSQL NN or later; they are added below, once
# MAJORVERSION is known.
# REGRESS_RANDOM, the random differential test of time queries (half a
# minute), is left out by the quick checks of an installation that run
# beside a whole suite: the package's autopkgtest in CI and the PGXN zip's
# (REGRESS_RANDOM= in the environment).
REGRESS_RANDOM ?= time_range_random
REGRESS = bounds catalog convert core18_names extract mask migration minmax pg_uuidv7 security shared_names text_forms time_forms time_range time_range_plans \
	time_range_rules \
	time_range_shapes \
	$(REGRESS_RANDOM) ulid v6 v7 v8
REGRESS_OPTS = --load-extension=uuidx --encoding=UTF8 --no-locale \
	--temp-instance=tmp_check_regress --temp-config=$(srcdir)/test/preload.conf
ISOLATION = order_two_sessions
ISOLATION_OPTS = --inputdir=$(srcdir)/test --load-extension=uuidx \
	--temp-instance=tmp_check_iso --temp-config=$(srcdir)/test/preload.conf
TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl

EXTRA_CLEAN = tmp_check_regress

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

uuidx_at_least = $(shell test $(MAJORVERSION) -ge $(1) && echo yes)
ifeq ($(call uuidx_at_least,17),yes)
REGRESS += core_extract_pg17 v7_infinity_pg17
endif
ifeq ($(call uuidx_at_least,18),yes)
REGRESS += core_uuid_pg18 time_forms_pg18
endif
ifeq ($(call uuidx_at_least,19),yes)
REGRESS += text_forms_pg19
endif
# The TAP tests' shared modules (FakeClock.pm, ValueLog.pm); prove runs in
# the source folder.
PG_PROVE_FLAGS += -I test

# In a VPATH build (pg_buildext's build-NN directories) the folders of the
# objects and of the built install script do not exist yet.
ifdef VPATH
$(shell mkdir -p $(sort $(dir $(OBJS) $(DATA_built))))
endif

$(DATA_built): sql/extension/uuidx.sql
	cp $< $@

# Objects compiled against another PostgreSQL (make, then PG_CONFIG=other
# make install) must not be linked into this one's library: every object
# depends on a stamp naming the server headers it was compiled with, which
# is rewritten, and so rebuilds them, when they differ.
UUIDX_BUILT_FOR = $(VERSION) $(includedir_server)
src/.built-for: FORCE
	@echo '$(UUIDX_BUILT_FOR)' | cmp -s - $@ || echo '$(UUIDX_BUILT_FOR)' >$@
$(OBJS) $(OBJS:.o=.bc): src/.built-for
.PHONY: FORCE
EXTRA_CLEAN += src/.built-for

# Every object depends on every header: a rebuild takes seconds.
$(OBJS): $(wildcard $(srcdir)/src/*.h $(srcdir)/src/*/*.h $(srcdir)/src/*/*/*.h) Makefile

.PHONY: demo test bench soak matrix deb dist
demo:
	bash tools/demo.sh

test:
	bash tools/test.sh

bench:
	bash tools/bench/bench.sh

# Long tests, not part of CI: many failovers under load, a full disk.
soak:
	bash tools/soak.sh

# make test on each major in the Debian release that ships it (15 here, the
# others in roots made by tools/debian-root.sh) and on an assert-enabled 18
# built from Debian's source, then the Debian packages and the PGXN zip.
matrix:
	bash tools/matrix.sh

# debian/ is pg_buildext's layout; tools/deb.sh runs dpkg-buildpackage in a
# copy of the tree, here for 15 and in a Debian root for the other majors.
UUIDX_DEB ?=
deb:
	bash tools/deb.sh build $(UUIDX_DEB)

dist:
	git archive --format=zip --prefix=uuidx-$(UUIDX_VERSION)/ -o uuidx-$(UUIDX_VERSION).zip HEAD
	@echo uuidx-$(UUIDX_VERSION).zip
