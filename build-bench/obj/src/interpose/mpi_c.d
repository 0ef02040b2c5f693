build-bench/obj/src/interpose/mpi_c.o: src/interpose/mpi_c.c \
 src/interpose/../runtime/handles.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/interpose/../runtime/native.h src/interpose/../runtime/call.h \
 include/colibri.h src/interpose/../runtime/../kernels/dense.h \
 src/interpose/../runtime/../sched/schedule.h \
 src/interpose/../runtime/state/node.h \
 src/interpose/../runtime/state/state.h \
 src/interpose/../runtime/state/../../sched/schedule.h \
 src/interpose/../runtime/state/state.h \
 src/interpose/../runtime/operation.h src/interpose/../runtime/executor.h \
 src/interpose/../runtime/progress.h src/interpose/../runtime/stats.h
src/interpose/../runtime/handles.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/interpose/../runtime/native.h:
src/interpose/../runtime/call.h:
include/colibri.h:
src/interpose/../runtime/../kernels/dense.h:
src/interpose/../runtime/../sched/schedule.h:
src/interpose/../runtime/state/node.h:
src/interpose/../runtime/state/state.h:
src/interpose/../runtime/state/../../sched/schedule.h:
src/interpose/../runtime/state/state.h:
src/interpose/../runtime/operation.h:
src/interpose/../runtime/executor.h:
src/interpose/../runtime/progress.h:
src/interpose/../runtime/stats.h:
