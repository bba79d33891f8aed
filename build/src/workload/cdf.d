build/src/workload/cdf.o: src/workload/cdf.c src/workload/cdf.h \
 src/core/rng.h src/core/util.h
src/workload/cdf.h:
src/core/rng.h:
src/core/util.h:
