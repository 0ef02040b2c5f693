build-bench/obj/src/coll/allreduce/node_leader.o: \
 src/coll/allreduce/node_leader.c \
 src/coll/allreduce/../common/node_phases.h \
 src/coll/allreduce/../common/../../patterns/node_reduce.h \
 src/coll/allreduce/../common/../../patterns/nodes.h \
 src/coll/allreduce/../common/../algorithm.h \
 src/coll/allreduce/../common/../../sched/schedule.h
src/coll/allreduce/../common/node_phases.h:
src/coll/allreduce/../common/../../patterns/node_reduce.h:
src/coll/allreduce/../common/../../patterns/nodes.h:
src/coll/allreduce/../common/../algorithm.h:
src/coll/allreduce/../common/../../sched/schedule.h:
