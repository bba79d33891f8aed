build/src/mmu/bm_cs.o: src/mmu/bm_cs.c src/mmu/mmu.h src/core/param.h \
 src/core/util.h src/core/time.h
src/mmu/mmu.h:
src/core/param.h:
src/core/util.h:
src/core/time.h:
