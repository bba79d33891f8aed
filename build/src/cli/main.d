build/src/cli/main.o: src/cli/main.c src/cli/cfgfile.h src/core/util.h \
 src/sim/scenario.h src/core/param.h src/mmu/mmu.h src/core/time.h \
 src/sim/report.h src/sim/sim.h src/core/event.h src/core/pool.h \
 src/core/rng.h src/net/packet.h src/net/port.h src/transport/flow.h \
 src/transport/transport.h
src/cli/cfgfile.h:
src/core/util.h:
src/sim/scenario.h:
src/core/param.h:
src/mmu/mmu.h:
src/core/time.h:
src/sim/report.h:
src/sim/sim.h:
src/core/event.h:
src/core/pool.h:
src/core/rng.h:
src/net/packet.h:
src/net/port.h:
src/transport/flow.h:
src/transport/transport.h:
