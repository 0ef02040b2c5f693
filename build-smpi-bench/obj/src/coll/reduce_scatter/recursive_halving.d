build-smpi-bench/obj/src/coll/reduce_scatter/recursive_halving.o: \
 /work/main/src/coll/reduce_scatter/recursive_halving.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/reduce_scatter/../halving_steps.h \
 /work/main/src/coll/reduce_scatter/../../patterns/halving.h \
 /work/main/src/coll/reduce_scatter/../../patterns/butterfly.h \
 /work/main/src/coll/reduce_scatter/../../patterns/fold.h \
 /work/main/src/coll/reduce_scatter/../algorithm.h \
 /work/main/src/coll/reduce_scatter/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/reduce_scatter/../halving_steps.h:
/work/main/src/coll/reduce_scatter/../../patterns/halving.h:
/work/main/src/coll/reduce_scatter/../../patterns/butterfly.h:
/work/main/src/coll/reduce_scatter/../../patterns/fold.h:
/work/main/src/coll/reduce_scatter/../algorithm.h:
/work/main/src/coll/reduce_scatter/../../sched/schedule.h:
