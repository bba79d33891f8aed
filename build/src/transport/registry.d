build/src/transport/registry.o: src/transport/registry.c \
 src/transport/transport.h src/core/param.h src/core/util.h \
 src/transport/flow.h src/core/time.h
src/transport/transport.h:
src/core/param.h:
src/core/util.h:
src/transport/flow.h:
src/core/time.h:
