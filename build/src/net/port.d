build/src/net/port.o: src/net/port.c src/net/port.h src/core/time.h \
 src/net/packet.h src/sim/sim.h src/core/event.h src/core/pool.h \
 src/core/rng.h src/mmu/mmu.h src/core/param.h src/core/util.h \
 src/sim/scenario.h src/transport/flow.h src/net/switch.h
src/net/port.h:
src/core/time.h:
src/net/packet.h:
src/sim/sim.h:
src/core/event.h:
src/core/pool.h:
src/core/rng.h:
src/mmu/mmu.h:
src/core/param.h:
src/core/util.h:
src/sim/scenario.h:
src/transport/flow.h:
src/net/switch.h:
