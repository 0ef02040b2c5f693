build-bench/obj/src/coll/reduce_scatter/sparse_recursive_halving.o: \
 src/coll/reduce_scatter/sparse_recursive_halving.c \
 src/coll/reduce_scatter/../../patterns/halving.h \
 src/coll/reduce_scatter/../../patterns/butterfly.h \
 src/coll/reduce_scatter/../../patterns/fold.h \
 src/coll/reduce_scatter/../algorithm.h \
 src/coll/reduce_scatter/../../sched/schedule.h \
 src/coll/reduce_scatter/../common/sparse_acc.h \
 src/coll/reduce_scatter/../common/../algorithm.h
src/coll/reduce_scatter/../../patterns/halving.h:
src/coll/reduce_scatter/../../patterns/butterfly.h:
src/coll/reduce_scatter/../../patterns/fold.h:
src/coll/reduce_scatter/../algorithm.h:
src/coll/reduce_scatter/../../sched/schedule.h:
src/coll/reduce_scatter/../common/sparse_acc.h:
src/coll/reduce_scatter/../common/../algorithm.h:
