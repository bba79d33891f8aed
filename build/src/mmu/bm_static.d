build/src/mmu/bm_static.o: src/mmu/bm_static.c src/mmu/mmu.h \
 src/core/param.h src/core/util.h src/core/time.h
src/mmu/mmu.h:
src/core/param.h:
src/core/util.h:
src/core/time.h:
