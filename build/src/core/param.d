build/src/core/param.o: src/core/param.c src/core/param.h src/core/util.h
src/core/param.h:
src/core/util.h:
