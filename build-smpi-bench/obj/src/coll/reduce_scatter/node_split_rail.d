build-smpi-bench/obj/src/coll/reduce_scatter/node_split_rail.o: \
 /work/main/src/coll/reduce_scatter/node_split_rail.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/reduce_scatter/../common/node_phases.h \
 /work/main/src/coll/reduce_scatter/../common/../../patterns/node_reduce.h \
 /work/main/src/coll/reduce_scatter/../common/../../patterns/nodes.h \
 /work/main/src/coll/reduce_scatter/../common/../algorithm.h \
 /work/main/src/coll/reduce_scatter/../common/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/reduce_scatter/../common/node_phases.h:
/work/main/src/coll/reduce_scatter/../common/../../patterns/node_reduce.h:
/work/main/src/coll/reduce_scatter/../common/../../patterns/nodes.h:
/work/main/src/coll/reduce_scatter/../common/../algorithm.h:
/work/main/src/coll/reduce_scatter/../common/../../sched/schedule.h:
