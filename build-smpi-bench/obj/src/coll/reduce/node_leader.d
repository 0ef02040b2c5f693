build-smpi-bench/obj/src/coll/reduce/node_leader.o: \
 /work/main/src/coll/reduce/node_leader.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/reduce/../common/node_phases.h \
 /work/main/src/coll/reduce/../common/../../patterns/node_reduce.h \
 /work/main/src/coll/reduce/../common/../../patterns/nodes.h \
 /work/main/src/coll/reduce/../common/../algorithm.h \
 /work/main/src/coll/reduce/../common/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/reduce/../common/node_phases.h:
/work/main/src/coll/reduce/../common/../../patterns/node_reduce.h:
/work/main/src/coll/reduce/../common/../../patterns/nodes.h:
/work/main/src/coll/reduce/../common/../algorithm.h:
/work/main/src/coll/reduce/../common/../../sched/schedule.h:
