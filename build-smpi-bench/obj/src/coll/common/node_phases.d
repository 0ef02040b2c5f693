build-smpi-bench/obj/src/coll/common/node_phases.o: \
 /work/main/src/coll/common/node_phases.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/common/node_phases.h \
 /work/main/src/coll/common/../../patterns/node_reduce.h \
 /work/main/src/coll/common/../../patterns/nodes.h \
 /work/main/src/coll/common/../algorithm.h \
 /work/main/src/coll/common/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/common/node_phases.h:
/work/main/src/coll/common/../../patterns/node_reduce.h:
/work/main/src/coll/common/../../patterns/nodes.h:
/work/main/src/coll/common/../algorithm.h:
/work/main/src/coll/common/../../sched/schedule.h:
