build-bench/obj/src/coll/allreduce/sparse_recursive_doubling.o: \
 src/coll/allreduce/sparse_recursive_doubling.c \
 src/coll/allreduce/../../patterns/butterfly.h \
 src/coll/allreduce/../../patterns/fold.h \
 src/coll/allreduce/../algorithm.h \
 src/coll/allreduce/../../sched/schedule.h \
 src/coll/allreduce/../common/sparse_acc.h \
 src/coll/allreduce/../common/../algorithm.h
src/coll/allreduce/../../patterns/butterfly.h:
src/coll/allreduce/../../patterns/fold.h:
src/coll/allreduce/../algorithm.h:
src/coll/allreduce/../../sched/schedule.h:
src/coll/allreduce/../common/sparse_acc.h:
src/coll/allreduce/../common/../algorithm.h:
