build/src/transport/cc_dctcp.o: src/transport/cc_dctcp.c src/sim/sim.h \
 src/core/event.h src/core/time.h src/core/pool.h src/core/rng.h \
 src/mmu/mmu.h src/core/param.h src/core/util.h src/net/packet.h \
 src/net/port.h src/sim/scenario.h src/transport/flow.h \
 src/transport/tcp.h src/transport/transport.h
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
src/transport/tcp.h:
src/transport/transport.h:
