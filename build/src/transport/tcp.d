build/src/transport/tcp.o: src/transport/tcp.c src/transport/tcp.h \
 src/core/time.h src/transport/flow.h src/net/packet.h src/sim/sim.h \
 src/core/event.h src/core/pool.h src/core/rng.h src/mmu/mmu.h \
 src/core/param.h src/core/util.h src/net/port.h src/sim/scenario.h
src/transport/tcp.h:
src/core/time.h:
src/transport/flow.h:
src/net/packet.h:
src/sim/sim.h:
src/core/event.h:
src/core/pool.h:
src/core/rng.h:
src/mmu/mmu.h:
src/core/param.h:
src/core/util.h:
src/net/port.h:
src/sim/scenario.h:
