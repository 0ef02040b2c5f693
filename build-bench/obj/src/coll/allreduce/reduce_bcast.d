build-bench/obj/src/coll/allreduce/reduce_bcast.o: \
 src/coll/allreduce/reduce_bcast.c \
 src/coll/allreduce/../../patterns/fold.h \
 src/coll/allreduce/../algorithm.h \
 src/coll/allreduce/../../sched/schedule.h \
 src/coll/allreduce/../common/binomial.h \
 src/coll/allreduce/../common/partial.h \
 src/coll/allreduce/../common/../algorithm.h
src/coll/allreduce/../../patterns/fold.h:
src/coll/allreduce/../algorithm.h:
src/coll/allreduce/../../sched/schedule.h:
src/coll/allreduce/../common/binomial.h:
src/coll/allreduce/../common/partial.h:
src/coll/allreduce/../common/../algorithm.h:
