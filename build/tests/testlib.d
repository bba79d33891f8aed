build/tests/testlib.o: tests/testlib.c tests/testlib.h src/sim/scenario.h \
 src/core/param.h src/core/util.h src/sim/sim.h src/core/event.h \
 src/core/time.h src/core/pool.h src/core/rng.h src/mmu/mmu.h \
 src/net/packet.h src/net/port.h src/transport/flow.h src/cli/cfgfile.h
tests/testlib.h:
src/sim/scenario.h:
src/core/param.h:
src/core/util.h:
src/sim/sim.h:
src/core/event.h:
src/core/time.h:
src/core/pool.h:
src/core/rng.h:
src/mmu/mmu.h:
src/net/packet.h:
src/net/port.h:
src/transport/flow.h:
src/cli/cfgfile.h:
