build/src/mmu/bm_dt.o: src/mmu/bm_dt.c src/mmu/mmu.h src/core/param.h \
 src/core/util.h src/core/time.h
src/mmu/mmu.h:
src/core/param.h:
src/core/util.h:
src/core/time.h:
