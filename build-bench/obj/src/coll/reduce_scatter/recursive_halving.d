build-bench/obj/src/coll/reduce_scatter/recursive_halving.o: \
 src/coll/reduce_scatter/recursive_halving.c \
 src/coll/reduce_scatter/../halving_steps.h \
 src/coll/reduce_scatter/../../patterns/halving.h \
 src/coll/reduce_scatter/../../patterns/butterfly.h \
 src/coll/reduce_scatter/../../patterns/fold.h \
 src/coll/reduce_scatter/../algorithm.h \
 src/coll/reduce_scatter/../../sched/schedule.h
src/coll/reduce_scatter/../halving_steps.h:
src/coll/reduce_scatter/../../patterns/halving.h:
src/coll/reduce_scatter/../../patterns/butterfly.h:
src/coll/reduce_scatter/../../patterns/fold.h:
src/coll/reduce_scatter/../algorithm.h:
src/coll/reduce_scatter/../../sched/schedule.h:
