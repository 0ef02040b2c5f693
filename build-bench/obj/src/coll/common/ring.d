build-bench/obj/src/coll/common/ring.o: src/coll/common/ring.c \
 src/coll/common/ring.h src/coll/common/partial.h \
 src/coll/common/../algorithm.h src/coll/common/../../sched/schedule.h \
 src/coll/common/../../patterns/ring.h
src/coll/common/ring.h:
src/coll/common/partial.h:
src/coll/common/../algorithm.h:
src/coll/common/../../sched/schedule.h:
src/coll/common/../../patterns/ring.h:
