build/src/core/event.o: src/core/event.c src/core/event.h src/core/time.h \
 src/core/util.h
src/core/event.h:
src/core/time.h:
src/core/util.h:
