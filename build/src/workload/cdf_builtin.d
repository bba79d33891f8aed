build/src/workload/cdf_builtin.o: src/workload/cdf_builtin.c \
 src/workload/cdf.h src/core/rng.h src/core/util.h
src/workload/cdf.h:
src/core/rng.h:
src/core/util.h:
