build/src/core/pool.o: src/core/pool.c src/core/pool.h src/core/util.h
src/core/pool.h:
src/core/util.h:
