build-smpi-bench/obj/src/coll/reduce_scatter/pairwise.o: \
 /work/main/src/coll/reduce_scatter/pairwise.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/reduce_scatter/../../patterns/ring.h \
 /work/main/src/coll/reduce_scatter/../algorithm.h \
 /work/main/src/coll/reduce_scatter/../../sched/schedule.h \
 /work/main/src/coll/reduce_scatter/../common/partial.h \
 /work/main/src/coll/reduce_scatter/../common/../algorithm.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/reduce_scatter/../../patterns/ring.h:
/work/main/src/coll/reduce_scatter/../algorithm.h:
/work/main/src/coll/reduce_scatter/../../sched/schedule.h:
/work/main/src/coll/reduce_scatter/../common/partial.h:
/work/main/src/coll/reduce_scatter/../common/../algorithm.h:
