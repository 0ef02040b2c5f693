build-smpi-bench/obj/src/runtime/state/node.o: \
 /work/main/src/runtime/state/node.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/state/../../config/config.h include/colibri.h \
 /usr/include/smpi/mpi.h \
 /work/main/src/runtime/state/../../patterns/node_reduce.h \
 /work/main/src/runtime/state/../../patterns/nodes.h \
 /work/main/src/runtime/state/node.h /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/setup.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/state/../../config/config.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/state/../../patterns/node_reduce.h:
/work/main/src/runtime/state/../../patterns/nodes.h:
/work/main/src/runtime/state/node.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/setup.h:
