build/src/sim/scenario.o: src/sim/scenario.c src/sim/scenario.h \
 src/core/param.h src/core/util.h src/mmu/mmu.h src/core/time.h \
 src/transport/transport.h src/transport/flow.h
src/sim/scenario.h:
src/core/param.h:
src/core/util.h:
src/mmu/mmu.h:
src/core/time.h:
src/transport/transport.h:
src/transport/flow.h:
