build-bench/obj/src/coll/common/node_phases.o: \
 src/coll/common/node_phases.c src/coll/common/node_phases.h \
 src/coll/common/../../patterns/node_reduce.h \
 src/coll/common/../../patterns/nodes.h src/coll/common/../algorithm.h \
 src/coll/common/../../sched/schedule.h
src/coll/common/node_phases.h:
src/coll/common/../../patterns/node_reduce.h:
src/coll/common/../../patterns/nodes.h:
src/coll/common/../algorithm.h:
src/coll/common/../../sched/schedule.h:
