build/src/workload/workload.o: src/workload/workload.c \
 src/workload/workload.h src/sim/sim.h src/core/event.h src/core/time.h \
 src/core/pool.h src/core/rng.h src/mmu/mmu.h src/core/param.h \
 src/core/util.h src/net/packet.h src/net/port.h src/sim/scenario.h \
 src/transport/flow.h src/transport/cbr.h src/transport/transport.h \
 src/workload/cdf.h src/workload/flowfile.h
src/workload/workload.h:
src/sim/sim.h:
src/core/event.h:
src/core/time.h:
src/core/pool.h:
src/core/rng.h:
src/mmu/mmu.h:
src/core/param.h:
src/core/util.h:
src/net/packet.h:
src/net/port.h:
src/sim/scenario.h:
src/transport/flow.h:
src/transport/cbr.h:
src/transport/transport.h:
src/workload/cdf.h:
src/workload/flowfile.h:
