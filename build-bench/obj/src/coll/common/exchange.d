build-bench/obj/src/coll/common/exchange.o: src/coll/common/exchange.c \
 src/coll/common/exchange.h src/coll/common/../algorithm.h \
 src/coll/common/../../sched/schedule.h \
 src/coll/common/../../patterns/ring.h
src/coll/common/exchange.h:
src/coll/common/../algorithm.h:
src/coll/common/../../sched/schedule.h:
src/coll/common/../../patterns/ring.h:
