build-smpi-bench/obj/src/runtime/agree.o: /work/main/src/runtime/agree.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/../coll/algorithm.h \
 /work/main/src/runtime/../coll/../sched/schedule.h \
 /work/main/src/runtime/agree.h /work/main/src/runtime/call.h \
 /usr/include/smpi/mpi.h include/colibri.h \
 /work/main/src/runtime/../kernels/dense.h \
 /work/main/src/runtime/../sched/schedule.h \
 /work/main/src/runtime/state/node.h /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/state.h /work/main/src/runtime/executor.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/../coll/algorithm.h:
/work/main/src/runtime/../coll/../sched/schedule.h:
/work/main/src/runtime/agree.h:
/work/main/src/runtime/call.h:
/usr/include/smpi/mpi.h:
include/colibri.h:
/work/main/src/runtime/../kernels/dense.h:
/work/main/src/runtime/../sched/schedule.h:
/work/main/src/runtime/state/node.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/executor.h:
