build-bench/obj/src/coll/reduce_scatter/ring.o: \
 src/coll/reduce_scatter/ring.c \
 src/coll/reduce_scatter/../../patterns/ring.h \
 src/coll/reduce_scatter/../algorithm.h \
 src/coll/reduce_scatter/../../sched/schedule.h \
 src/coll/reduce_scatter/../common/ring.h \
 src/coll/reduce_scatter/../common/partial.h \
 src/coll/reduce_scatter/../common/../algorithm.h
src/coll/reduce_scatter/../../patterns/ring.h:
src/coll/reduce_scatter/../algorithm.h:
src/coll/reduce_scatter/../../sched/schedule.h:
src/coll/reduce_scatter/../common/ring.h:
src/coll/reduce_scatter/../common/partial.h:
src/coll/reduce_scatter/../common/../algorithm.h:
