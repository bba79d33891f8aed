build/src/mmu/mmu.o: src/mmu/mmu.c src/mmu/mmu.h src/core/param.h \
 src/core/util.h src/core/time.h
src/mmu/mmu.h:
src/core/param.h:
src/core/util.h:
src/core/time.h:
