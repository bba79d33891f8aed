build/src/workload/flowfile.o: src/workload/flowfile.c \
 src/workload/flowfile.h src/core/util.h src/sim/scenario.h \
 src/core/param.h
src/workload/flowfile.h:
src/core/util.h:
src/sim/scenario.h:
src/core/param.h:
