# uuidx: PGXS build, plus the demo, test and bench targets.
#
#   make demo     install what is needed, build, start a throwaway server, walk through uuidx
#   make test     install what is needed, build, run the whole suite on throwaway servers
#   make bench    benchmark against core functions on a throwaway server
#   make matrix   make test on PostgreSQL 15, 17 and 18 (what CI runs)
#
# PG_CONFIG=/path/to/pg_config selects the PostgreSQL to build and test against.

EXTENSION = uuidx
MODULE_big = uuidx
OBJS = \
	src/clock.o \
	src/generate.o \
	src/generator_state.o \
	src/inspect.o \
	src/layout.o \
	src/module.o \
	src/name_v8.o \
	src/pg_uuidv7_compat.o \
	src/random_pool.o
DATA = $(wildcard sql/uuidx--*.sql)

# Warnings are errors.  -Wextra's unused-parameter warning is off: every
# PG_FUNCTION_ARGS entry point and several of PostgreSQL's own inline header
# functions have parameters they do not use.
UUIDX_WERROR ?= -Werror
PG_CFLAGS += -Wall -Wextra -Wno-unused-parameter $(UUIDX_WERROR)

EXTRA_CLEAN = results regression.diffs regression.out output_iso tmp_check log

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

$(OBJS): src/uuidx.h src/compat.h

.PHONY: demo test bench matrix
demo:
	bash test/demo.sh

test:
	bash test/run.sh

bench:
	bash test/bench/bench.sh

# The whole suite (make test) on PostgreSQL 15 (Debian), 17 and 18 (built
# from Debian's source packages into a cache outside the checkout).
matrix:
	bash test/matrix.sh
