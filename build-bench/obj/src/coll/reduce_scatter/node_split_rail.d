build-bench/obj/src/coll/reduce_scatter/node_split_rail.o: \
 src/coll/reduce_scatter/node_split_rail.c \
 src/coll/reduce_scatter/../common/node_phases.h \
 src/coll/reduce_scatter/../common/../../patterns/node_reduce.h \
 src/coll/reduce_scatter/../common/../../patterns/nodes.h \
 src/coll/reduce_scatter/../common/../algorithm.h \
 src/coll/reduce_scatter/../common/../../sched/schedule.h
src/coll/reduce_scatter/../common/node_phases.h:
src/coll/reduce_scatter/../common/../../patterns/node_reduce.h:
src/coll/reduce_scatter/../common/../../patterns/nodes.h:
src/coll/reduce_scatter/../common/../algorithm.h:
src/coll/reduce_scatter/../common/../../sched/schedule.h:
