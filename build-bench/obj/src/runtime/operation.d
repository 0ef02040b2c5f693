build-bench/obj/src/runtime/operation.o: src/runtime/operation.c \
 src/runtime/handles.h /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/runtime/operation.h src/runtime/executor.h src/runtime/call.h \
 include/colibri.h src/runtime/../kernels/dense.h \
 src/runtime/../sched/schedule.h src/runtime/state/node.h \
 src/runtime/state/state.h src/runtime/state/../../sched/schedule.h \
 src/runtime/state/state.h src/runtime/progress.h \
 src/runtime/../select/catalog.h \
 src/runtime/../select/../coll/algorithm.h \
 src/runtime/../select/../coll/../sched/schedule.h src/runtime/stats.h \
 src/runtime/validate.h
src/runtime/handles.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/runtime/operation.h:
src/runtime/executor.h:
src/runtime/call.h:
include/colibri.h:
src/runtime/../kernels/dense.h:
src/runtime/../sched/schedule.h:
src/runtime/state/node.h:
src/runtime/state/state.h:
src/runtime/state/../../sched/schedule.h:
src/runtime/state/state.h:
src/runtime/progress.h:
src/runtime/../select/catalog.h:
src/runtime/../select/../coll/algorithm.h:
src/runtime/../select/../coll/../sched/schedule.h:
src/runtime/stats.h:
src/runtime/validate.h:
