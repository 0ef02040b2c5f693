build-bench/obj/src/coll/allreduce/ring.o: src/coll/allreduce/ring.c \
 src/coll/allreduce/../../patterns/ring.h \
 src/coll/allreduce/../algorithm.h \
 src/coll/allreduce/../../sched/schedule.h \
 src/coll/allreduce/../common/ring.h \
 src/coll/allreduce/../common/partial.h \
 src/coll/allreduce/../common/../algorithm.h
src/coll/allreduce/../../patterns/ring.h:
src/coll/allreduce/../algorithm.h:
src/coll/allreduce/../../sched/schedule.h:
src/coll/allreduce/../common/ring.h:
src/coll/allreduce/../common/partial.h:
src/coll/allreduce/../common/../algorithm.h:
