build-smpi-bench/obj/src/coll/allreduce/node_leader.o: \
 /work/main/src/coll/allreduce/node_leader.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/allreduce/../common/node_phases.h \
 /work/main/src/coll/allreduce/../common/../../patterns/node_reduce.h \
 /work/main/src/coll/allreduce/../common/../../patterns/nodes.h \
 /work/main/src/coll/allreduce/../common/../algorithm.h \
 /work/main/src/coll/allreduce/../common/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/allreduce/../common/node_phases.h:
/work/main/src/coll/allreduce/../common/../../patterns/node_reduce.h:
/work/main/src/coll/allreduce/../common/../../patterns/nodes.h:
/work/main/src/coll/allreduce/../common/../algorithm.h:
/work/main/src/coll/allreduce/../common/../../sched/schedule.h:
