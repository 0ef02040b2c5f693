build-smpi-bench/obj/src/runtime/operation.o: \
 /work/main/src/runtime/operation.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/handles.h /usr/include/smpi/mpi.h \
 /work/main/src/runtime/operation.h /work/main/src/runtime/executor.h \
 /work/main/src/runtime/call.h include/colibri.h \
 /work/main/src/runtime/../kernels/dense.h \
 /work/main/src/runtime/../sched/schedule.h \
 /work/main/src/runtime/state/node.h /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/state.h /work/main/src/runtime/progress.h \
 /work/main/src/runtime/../select/catalog.h \
 /work/main/src/runtime/../select/../coll/algorithm.h \
 /work/main/src/runtime/../select/../coll/../sched/schedule.h \
 /work/main/src/runtime/stats.h /work/main/src/runtime/validate.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/handles.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/operation.h:
/work/main/src/runtime/executor.h:
/work/main/src/runtime/call.h:
include/colibri.h:
/work/main/src/runtime/../kernels/dense.h:
/work/main/src/runtime/../sched/schedule.h:
/work/main/src/runtime/state/node.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/progress.h:
/work/main/src/runtime/../select/catalog.h:
/work/main/src/runtime/../select/../coll/algorithm.h:
/work/main/src/runtime/../select/../coll/../sched/schedule.h:
/work/main/src/runtime/stats.h:
/work/main/src/runtime/validate.h:
