build/src/cli/cfgfile.o: src/cli/cfgfile.c src/cli/cfgfile.h \
 src/core/util.h src/sim/scenario.h src/core/param.h src/mmu/mmu.h \
 src/core/time.h
src/cli/cfgfile.h:
src/core/util.h:
src/sim/scenario.h:
src/core/param.h:
src/mmu/mmu.h:
src/core/time.h:
