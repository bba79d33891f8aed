# sharebuf — plain GNU Make build. Why not CMake: the whole project is one library, one program
# and a directory of test programs; a 60-line Makefile states that directly, builds in seconds,
# and needs nothing beyond make and a C compiler. Targets:
#   make            build/sharebuf (+ build/libsharebuf.a)
#   make test       build and run every test program of tests/ (tests/run-tests.sh): simulated
#                   time only, the same result on a loaded machine
#   make test-realtime  the real-time tests of tests/realtime/ (real packets in network
#                   namespaces, as root; CI's testbed step): docs/testing.md §1
#   make sanitize   the same tests under AddressSanitizer + UndefinedBehaviorSanitizer
#   make fuzz       the libFuzzer harnesses (fuzz/README.md), FUZZ_SECONDS (60) each, with clang
#   make bench      the reference benchmarks (bench/run-bench.sh) and the scaling table at
#                   25 Gb/s (bench/run-scaling.sh), appended to BENCHMARKS.md
#   make bench-scaling  the whole scaling table: 256 to 16,384 hosts at 25, 100 and 400 Gb/s
#   make bench-dataplane  the software switch's forwarding rate and added latency (root)
#   make deps       install the Debian packages the build needs (needs root)
#   make demo       build, then compare every scheme on the default scenario (README)
#   make docs       regenerate docs/scenario-keys.md and the generated parts of the READMEs
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
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
RT_SRC   := $(sort $(wildcard tests/realtime/test_*.c))
RT_TESTS := $(RT_SRC:tests/%.c=$(BUILD)/tests/%)
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
DEFAULT_SCENARIO := scenarios/default.cfg

.PHONY: all test test-only test-realtime build-tests sanitize fuzz fuzzers bench bench-scaling bench-memory bench-misses bench-dataplane deps clean docs demo FORCE
# keep test objects (no "rm ..." after the test summary, faster rebuilds)
.SECONDARY:
all: $(BUILD)/sharebuf $(BUILD)/sharebuf-switch $(BUILD)/sharebuf-load

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

$(BUILD)/sharebuf: $(BUILD)/src/cli/main.o $(MPI_OBJ) $(BUILD)/libsharebuf.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) $(MPI_LDLIBS)

# the software switch of the testbed (docs/testbed.md)
$(BUILD)/sharebuf-switch: $(BUILD)/src/dataplane/main.o $(BUILD)/libsharebuf.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)
# its test and benchmark traffic, run in the hosts' namespaces
$(BUILD)/dp-udp: bench/dp_udp.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fno-lto $< -o $@

# the machine's memory latency by working-set size, recorded beside the scaling table
$(BUILD)/mem-latency: bench/mem_latency.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fno-lto $< -o $@

# The testbed's load generator (docs/testbed.md): the simulator's workloads on real sockets.
$(BUILD)/sharebuf-load: $(BUILD)/src/load/main.o $(BUILD)/libsharebuf.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/tests/testlib.o $(BUILD)/libsharebuf.a
	$(CC) $(CFLAGS) -fno-lto $^ -o $@ $(LDLIBS) $(TEST_LDLIBS)
# the switch's program tests run the switch and its traffic tool
$(BUILD)/tests/test_dataplane_veth: | $(BUILD)/sharebuf-switch $(BUILD)/dp-udp
$(BUILD)/tests/realtime/test_veth: | $(BUILD)/sharebuf-switch $(BUILD)/dp-udp
# the safe-file test runs the load tool's report as well
$(BUILD)/tests/test_outdir_safe: | $(BUILD)/sharebuf $(BUILD)/sharebuf-load

# The fuzzing harnesses (fuzz/README.md), built with the normal compiler, replay every input
# that ever found a defect (tests/test_fuzz_regressions.c).
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
$(BUILD)/tests/test_fuzz_regressions: $(BUILD)/tests/test_fuzz_regressions.o $(BUILD)/tests/testlib.o \
		$(FUZZ_SRC:%.c=$(BUILD)/%.o) $(BUILD)/libsharebuf.a
	$(CC) $(CFLAGS) -fno-lto $^ -o $@ $(LDLIBS) $(TEST_LDLIBS)

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

# examples are built (and run) with the tests so the documented embedding code cannot rot
$(BUILD)/examples/%: examples/%.c $(BUILD)/libsharebuf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fno-lto $< $(BUILD)/libsharebuf.a -o $@ $(LDLIBS)

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
# committed REPORT.md); tests/test_cli.c and tests/test_docs.c fail when they are stale
docs: $(BUILD)/sharebuf
	$(BUILD)/sharebuf params > docs/scenario-keys.md
	sh tools/gen-docs.sh $(BUILD)/sharebuf

deps:
	sh tools/install-deps.sh

clean:
	rm -rf build build-san build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
