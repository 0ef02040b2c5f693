build-bench/obj/src/coll/reduce/node_split_rail.o: \
 src/coll/reduce/node_split_rail.c \
 src/coll/reduce/../common/node_phases.h \
 src/coll/reduce/../common/../../patterns/node_reduce.h \
 src/coll/reduce/../common/../../patterns/nodes.h \
 src/coll/reduce/../common/../algorithm.h \
 src/coll/reduce/../common/../../sched/schedule.h
src/coll/reduce/../common/node_phases.h:
src/coll/reduce/../common/../../patterns/node_reduce.h:
src/coll/reduce/../common/../../patterns/nodes.h:
src/coll/reduce/../common/../algorithm.h:
src/coll/reduce/../common/../../sched/schedule.h:
