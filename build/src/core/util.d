build/src/core/util.o: src/core/util.c src/core/util.h
src/core/util.h:
