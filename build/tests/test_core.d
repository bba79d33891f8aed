build/tests/test_core.o: tests/test_core.c src/core/event.h \
 src/core/time.h src/core/param.h src/core/util.h src/core/pool.h \
 src/core/rng.h
src/core/event.h:
src/core/time.h:
src/core/param.h:
src/core/util.h:
src/core/pool.h:
src/core/rng.h:
