# sharebuf — plain GNU Make build. Why not CMake: the whole project is one library, one program
# and a directory of test programs; a 60-line Makefile states that directly, builds in seconds,
# and needs nothing beyond make and a C compiler. Targets:
#   make            build/sharebuf, build/sharebuf-switch and build/sharebuf-load, each linked
#                   from the archives of its layer and those below (build/lib/libsb_LAYER.a),
#                   and build/libsharebuf.a (every layer: the fuzzers, examples, probes)
#   make test       build and run every test program of tests/LAYER/ (tests/run-tests.sh): simulated
#                   time only, the same result on a loaded machine
#   make test-realtime  the real-time tests of tests/realtime/ (real packets in network
#                   namespaces, as root; CI's testbed step): docs/testing.md §1
#   make sanitize   the same tests under AddressSanitizer + UndefinedBehaviorSanitizer
#   make fuzz       the libFuzzer harnesses (fuzz/README.md), FUZZ_SECONDS (60) each, with clang
#   make bench      the reference benchmarks (bench/run-bench.sh) and the scaling table at
#                   25 Gb/s (bench/run-scaling.sh), rows appended to bench/results/*.tsv (no
#                   file at the root changes; `make docs` then updates BENCHMARKS.md)
#   make bench-scaling  the whole scaling table: 256 to 16,384 hosts at 25, 100 and 400 Gb/s
#   make bench-dataplane  the software switch's forwarding rate and added latency (root)
#   make deps       install the Debian packages the build needs (needs root)
#   make demo       build, then compare every scheme on the default scenario (README)
#   make docs       regenerate docs/scenario-keys.md and the generated parts of the READMEs
#                   and of BENCHMARKS.md (its tables, from bench/results/)
#   make install    the MMU library, its headers and sbmmu.pc under PREFIX (/usr/local;
#                   DESTDIR honoured; docs/mmu.md §7); make uninstall removes them
CC      ?= cc
BUILD   ?= build
PKGS    := libconfig jansson nettle
OPT     ?= -O2 -g
# Link-time optimisation for the program: the per-packet path crosses files (link, switch, MMU,
# scheme), and inlining across them cuts 3-4 % of its instructions (BENCHMARKS.md). Objects are
# fat, so test programs link them without the LTO pass and build as fast as before.
LTO     ?= -flto=auto -ffat-lto-objects
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
CFLAGS  += -std=c17 -D_GNU_SOURCE $(OPT) $(LTO) $(WARN) -Isrc $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
TEST_LDLIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

LIB_SRC  := $(sort $(filter-out src/cli/main.c src/dataplane/main.c src/load/main.c,$(wildcard src/*/*.c)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
# tests/LAYER/test_*.c: each test program in the directory of the lowest layer whose code it
# needs (docs/testing.md, "Where a test goes"); tests/realtime/ apart (make test-realtime)
TEST_SRC := $(sort $(foreach l,$(shell awk '$$1 == "layer" { print $$2 }' tools/layers.txt),$(wildcard tests/$(l)/test_*.c)))
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
RT_SRC   := $(sort $(wildcard tests/realtime/test_*.c))
RT_TESTS := $(RT_SRC:tests/%.c=$(BUILD)/tests/%)
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
DEFAULT_SCENARIO := scenarios/default.cfg

.PHONY: all test test-only test-realtime build-tests sanitize fuzz fuzzers bench bench-scaling bench-memory bench-misses bench-dataplane deps clean docs demo FORCE
# keep test objects (no "rm ..." after the test summary, faster rebuilds)
.SECONDARY:
all: $(BUILD)/sharebuf $(BUILD)/sharebuf-switch $(BUILD)/sharebuf-load $(BUILD)/libsharebuf.a

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# The embedded default scenario: scenarios/default.cfg turned into a C string.
$(BUILD)/gen/default_scenario.c: $(DEFAULT_SCENARIO) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh sb_default_scenario < $< > $@
$(BUILD)/gen/default_scenario.o: $(BUILD)/gen/default_scenario.c
	$(CC) $(CFLAGS) -c $< -o $@

# The git commit of the checkout (summary.json's provenance): the script runs at every make but
# rewrites the file only when the commit or the tree's cleanliness changed.
$(BUILD)/gen/commit.c: FORCE
	@mkdir -p $(dir $@)
	@sh tools/git-commit.sh $@
$(BUILD)/gen/commit.o: $(BUILD)/gen/commit.c
	$(CC) $(CFLAGS) -c $< -o $@
FORCE:

$(BUILD)/libsharebuf.a: $(LIB_OBJ) $(BUILD)/gen/default_scenario.o $(BUILD)/gen/commit.o
	@rm -f $@
	ar rcs $@ $^

# ---- The MMU library as an artifact (docs/mmu.md §7, "Embedding"): libsbmmu.a holds src/core
# and src/mmu only, which need libc and libm and nothing else, so an embedder links it without
# the simulator or its packages. `make install` puts it, the headers the public mmu.h includes
# and lib/pkgconfig/sbmmu.pc under PREFIX (DESTDIR honoured); tools/install-mmu.sh does the
# work, tests/mmu/test_mmu_install.c builds examples/embed_mmu.c against an installed copy.
PREFIX ?= /usr/local
SBMMU_OBJ := $(filter $(BUILD)/src/core/% $(BUILD)/src/mmu/%,$(LIB_OBJ))
$(BUILD)/libsbmmu.a: $(SBMMU_OBJ)
	@rm -f $@
	ar rcs $@ $^
install: $(BUILD)/libsbmmu.a
	CC="$(CC)" sh tools/install-mmu.sh install $(BUILD) "$(PREFIX)"
uninstall:
	sh tools/install-mmu.sh uninstall $(BUILD) "$(PREFIX)"
# the test compiles the example as this build compiles (a sanitized build's archive needs the
# sanitizer's flags to link)
$(BUILD)/tests/mmu/test_mmu_install: | $(BUILD)/libsbmmu.a
$(BUILD)/tests/mmu/test_mmu_install.o: CFLAGS += -DSB_BUILD_CC='"$(CC)"' -DSB_BUILD_OPT='"$(OPT)"'
.PHONY: install uninstall
# ---- end of the MMU library

# One archive per layer (tools/layers.txt, the one place the layers and their ranks are
# declared): build/lib/libsb_LAYER.a holds the objects of src/LAYER/. A program or a test of
# layer L links L's archive and those of every lower rank, never one of its own rank or above,
# so a call that climbs a layer is an undefined symbol at the link, not a review comment.
# The embedded default scenario belongs to the scenario layer (its reader's fallback), the
# commit to core (every program prints it).
LAYERS     := $(shell awk '$$1 == "layer" { print $$2 }' tools/layers.txt)
layer_rank  = $(shell awk -v l=$(1) '$$1 == "layer" && $$2 == l { print $$3 }' tools/layers.txt)
# the layers a file of layer $(1) may use: itself, then every lower rank, highest first (a
# static link resolves from left to right)
layers_below = $(shell awk -v l=$(1) '$$1 == "layer" { r[$$2] = $$3; n[++k] = $$2 } \
	END { for (i = 1; i <= k; i++) if (n[i] == l || r[n[i]] < r[l]) print r[n[i]], i, n[i] }' tools/layers.txt | \
	sort -k1,1nr -k2,2n | awk '{ print $$3 }')
layer_libs  = $(foreach l,$(call layers_below,$(1)),$(BUILD)/lib/libsb_$(l).a)
LAYER_OBJ_scenario := $(BUILD)/gen/default_scenario.o
LAYER_OBJ_core     := $(BUILD)/gen/commit.o
define LAYER_ARCHIVE
$(BUILD)/lib/libsb_$(1).a: $(filter $(BUILD)/src/$(1)/%,$(LIB_OBJ)) $(LAYER_OBJ_$(1))
	@mkdir -p $$(dir $$@)
	@rm -f $$@
	ar rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call LAYER_ARCHIVE,$(l))))
LAYER_LIBS := $(LAYERS:%=$(BUILD)/lib/libsb_%.a)
CLI_LIBS   := $(call layer_libs,cli)
SWITCH_LIBS := $(call layer_libs,dataplane)
LOAD_LIBS  := $(call layer_libs,load)

# MPI (docs/sweep.md): with Open MPI's mpicc on the PATH (tools/install-deps.sh installs it),
# `sweep --mpi` is built into the program from src/cli/mpi/; without it, the option says how to
# get it. Only the program links MPI: the library and the tests never need it.
MPICC ?= $(shell command -v mpicc 2>/dev/null)
ifneq ($(MPICC),)
MPI_OBJ    := $(BUILD)/src/cli/mpi/sweep_mpi.o
MPI_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(MPICC) --showme:compile 2>/dev/null))
MPI_LDLIBS := $(shell $(MPICC) --showme:link 2>/dev/null)
endif
$(BUILD)/src/cli/mpi/%.o: src/cli/mpi/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(MPI_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/sharebuf: $(BUILD)/src/cli/main.o $(MPI_OBJ) $(CLI_LIBS)
	$(CC) $(CFLAGS) $(filter %.o,$^) $(CLI_LIBS) -o $@ $(LDLIBS) $(MPI_LDLIBS)

# the software switch of the testbed (docs/testbed.md): the data plane's layer and those below
# it, so no object of the simulator (src/sim/, same rank) can be linked in
# (tests/dataplane/test_switch_symbols.c checks the program's symbols)
$(BUILD)/sharebuf-switch: $(BUILD)/src/dataplane/main.o $(SWITCH_LIBS)
	$(CC) $(CFLAGS) $(filter %.o,$^) $(SWITCH_LIBS) -o $@ $(LDLIBS)
# its test and benchmark traffic, run in the hosts' namespaces
$(BUILD)/dp-udp: bench/dp_udp.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fno-lto $< -o $@

# the machine's memory latency by working-set size, recorded beside the scaling table
$(BUILD)/mem-latency: bench/mem_latency.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fno-lto $< -o $@

# The testbed's load generator (docs/testbed.md): the simulator's workloads on real sockets.
$(BUILD)/sharebuf-load: $(BUILD)/src/load/main.o $(LOAD_LIBS)
	$(CC) $(CFLAGS) $(filter %.o,$^) $(LOAD_LIBS) -o $@ $(LDLIBS)

# The tests' helpers (tests/testlib.h), one archive: testlib.o needs only core, the others
# (tests/LAYER/*lib.c) their layer, so a test links the part it calls and no more.
TL_OBJ := $(patsubst %.c,$(BUILD)/%.o,tests/testlib.c $(sort $(wildcard tests/*/*lib.c tests/*/*lib_*.c)))
$(BUILD)/tests/libtl.a: $(TL_OBJ)
	@rm -f $@
	ar rcs $@ $^
# tests include "testlib.h" and their directory's harnesses from any directory of tests/
$(BUILD)/tests/%.o: CFLAGS += -Itests

# A test of tests/LAYER/ links the archives of LAYER and of the lower ranks only, once each
# and highest first, with no link group: a test (or a layer's code it calls) that needs a
# higher layer is an undefined symbol, so a test lives in the lowest layer whose archives it
# links with (docs/testing.md).
define TEST_LAYER
$(BUILD)/tests/$(1)/%: $(BUILD)/tests/$(1)/%.o $(BUILD)/tests/libtl.a $(call layer_libs,$(1))
	$$(CC) $$(CFLAGS) -fno-lto $$(filter %.o,$$^) $(BUILD)/tests/libtl.a $(call layer_libs,$(1)) \
		-o $$@ $$(LDLIBS) $$(TEST_LDLIBS)
endef
$(foreach l,$(LAYERS),$(eval $(call TEST_LAYER,$(l))))
# the real-time tests drive the programs and the load generator's code: every archive, in the
# load generator's order (it is the top layer, so its list holds every layer)
$(BUILD)/tests/realtime/%: $(BUILD)/tests/realtime/%.o $(BUILD)/tests/libtl.a $(LOAD_LIBS)
	$(CC) $(CFLAGS) -fno-lto $(filter %.o,$^) $(BUILD)/tests/libtl.a $(LOAD_LIBS) \
		-o $@ $(LDLIBS) $(TEST_LDLIBS)
# the switch's program tests run the switch and its traffic tool
$(BUILD)/tests/dataplane/test_dataplane_veth: | $(BUILD)/sharebuf-switch $(BUILD)/dp-udp
$(BUILD)/tests/realtime/test_veth: | $(BUILD)/sharebuf-switch $(BUILD)/dp-udp
# the switch's symbols are compared with those of every layer's archive and the programs' mains
$(BUILD)/tests/dataplane/test_switch_symbols: | $(BUILD)/sharebuf-switch $(LAYER_LIBS) \
	$(BUILD)/src/cli/main.o $(BUILD)/src/load/main.o
# the safe-file test runs the load tool's report as well
$(BUILD)/tests/cli/test_outdir_safe: | $(BUILD)/sharebuf $(BUILD)/sharebuf-load
$(BUILD)/tests/cli/test_cli: | $(BUILD)/sharebuf $(BUILD)/sharebuf-load $(BUILD)/sharebuf-switch

# The fuzzing harnesses (fuzz/README.md), built with the normal compiler, replay every input
# that ever found a defect (tests/cli/test_fuzz_regressions.c).
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
$(BUILD)/tests/cli/test_fuzz_regressions: $(BUILD)/tests/cli/test_fuzz_regressions.o \
		$(FUZZ_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/libtl.a $(CLI_LIBS)
	$(CC) $(CFLAGS) -fno-lto $(filter %.o,$^) $(BUILD)/tests/libtl.a $(CLI_LIBS) \
		-o $@ $(LDLIBS) $(TEST_LDLIBS)

# The README's two commands. Each first installs missing Debian packages, then re-enters make
# so that pkg-config sees them. They build quietly (tools/quietly.sh: the compiler's output
# goes to BUILD/build.log and is shown only if the build fails), so that they print their
# result: the comparison table, the test summary. `make` and `make test-only` stay verbose.
QUIETLY = sh tools/quietly.sh
demo:
	@sh tools/install-deps.sh
	@$(QUIETLY) $(BUILD)/build.log $(MAKE) --no-print-directory all
	$(BUILD)/sharebuf compare --out out/default

test:
	@sh tools/install-deps.sh
	@$(QUIETLY) $(BUILD)/build.log $(MAKE) --no-print-directory build-tests
	@$(MAKE) --no-print-directory test-only

# examples are built (and run) with the tests so the documented embedding code cannot rot;
# they link the MMU library alone, as an embedder does
$(BUILD)/examples/%: examples/%.c $(BUILD)/libsbmmu.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fno-lto $< $(BUILD)/libsbmmu.a -o $@ -lm

# programs of the experiments that embed the library (built, not run: experiments run them)
EXP_PROGS := $(BUILD)/experiments/dsh/fig13-probe
$(BUILD)/experiments/%: experiments/%.c $(BUILD)/libsharebuf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fno-lto $< $(BUILD)/libsharebuf.a -o $@ $(LDLIBS)

build-tests: $(BUILD)/sharebuf $(BUILD)/sharebuf-switch $(BUILD)/sharebuf-load $(BUILD)/dp-udp $(TESTS) $(EXAMPLES) $(EXP_PROGS)

# Each test program's output goes to BUILD/test-logs/; the last line is the summary
# "tests: N passed, N failed" (tests/run-tests.sh; VERBOSE=1 shows everything).
test-only: build-tests
	@for e in $(EXAMPLES); do $$e > /dev/null || { echo "example $$e failed"; exit 1; }; done
	@sh tests/run-tests.sh $(BUILD)

# real packets and real time (docs/testing.md §1): never part of `make test`
test-realtime:
	@sh tools/install-deps.sh
	@$(QUIETLY) $(BUILD)/build.log $(MAKE) --no-print-directory build-tests $(RT_TESTS)
	@sh tests/run-tests.sh $(BUILD) tests/realtime

SANITIZE = BUILD=build-san LTO= \
	OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all"
sanitize:
	@sh tools/install-deps.sh
	@$(QUIETLY) build-san/build.log $(MAKE) --no-print-directory $(SANITIZE) build-tests
	@$(MAKE) --no-print-directory $(SANITIZE) test-only

# libFuzzer needs clang; the library is built again with the fuzzer's coverage and ASan + UBSan
# in build-fuzz/, and tools/fuzz.sh runs each harness on its corpus (fuzz/README.md).
FUZZ_SECONDS ?= 60
FUZZ_BUILD = BUILD=build-fuzz CC=clang LTO= \
	OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
fuzz:
	@sh tools/install-deps.sh clang libclang-rt-dev
	@$(QUIETLY) build-fuzz/build.log $(MAKE) --no-print-directory $(FUZZ_BUILD) fuzzers
	sh tools/fuzz.sh build-fuzz $(FUZZ_SECONDS)
fuzzers: $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzzers/%)
$(BUILD)/fuzzers/%: fuzz/%.c fuzz/fuzz.h $(BUILD)/libsharebuf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -MF $@.d -MT $@ -DSB_LIBFUZZER -fsanitize=fuzzer $< $(BUILD)/libsharebuf.a -o $@ $(LDLIBS)

bench: $(BUILD)/sharebuf $(BUILD)/mem-latency
	sh bench/run-bench.sh $(BUILD)/sharebuf bench/reference.cfg
	sh bench/run-bench.sh $(BUILD)/sharebuf bench/reverie-rdma.cfg
	sh bench/run-scaling.sh $(BUILD)/sharebuf 25

bench-scaling: $(BUILD)/sharebuf $(BUILD)/mem-latency
	sh bench/run-scaling.sh $(BUILD)/sharebuf "25 100 400"

# L2 misses per packet-hop (cachegrind: a count that does not move with the machine's load)
bench-misses: $(BUILD)/sharebuf
	sh bench/cache-misses.sh $(BUILD)/sharebuf 256 16384

# memory flat in run length: the paper-scale Reverie run (2 s) and a 2·10^7-line flow list
# the software switch's forwarding rate and added latency (root: network namespaces)
bench-dataplane: $(BUILD)/sharebuf-switch $(BUILD)/dp-udp
	sh bench/dataplane-bench.sh $(BUILD)

bench-memory: $(BUILD)/sharebuf
	sh bench/memory-bench.sh $(BUILD)/sharebuf
	sh bench/flowlist-bench.sh $(BUILD)/sharebuf

# the generated reference of the keys, and the figures tools/gen-docs.sh writes between marker
# comments: the demo's table (a run of compare) and the reproductions' run times (their
# committed REPORT.md); tests/cli/test_cli.c and tests/cli/test_docs.c fail when they are stale
docs: $(BUILD)/sharebuf
	$(BUILD)/sharebuf params > docs/scenario-keys.md
	sh tools/gen-docs.sh $(BUILD)/sharebuf

deps:
	sh tools/install-deps.sh

clean:
	rm -rf build build-san build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
