build/tests/test_dt.o: tests/test_dt.c src/mmu/mmu.h src/core/param.h \
 src/core/util.h src/core/time.h src/sim/sim.h src/core/event.h \
 src/core/pool.h src/core/rng.h src/net/packet.h src/net/port.h \
 src/sim/scenario.h src/transport/flow.h src/transport/cbr.h \
 src/transport/transport.h
src/mmu/mmu.h:
src/core/param.h:
src/core/util.h:
src/core/time.h:
src/sim/sim.h:
src/core/event.h:
src/core/pool.h:
src/core/rng.h:
src/net/packet.h:
src/net/port.h:
src/sim/scenario.h:
src/transport/flow.h:
src/transport/cbr.h:
src/transport/transport.h:
