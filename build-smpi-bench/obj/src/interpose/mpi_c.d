build-smpi-bench/obj/src/interpose/mpi_c.o: \
 /work/main/src/interpose/mpi_c.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/interpose/../runtime/handles.h /usr/include/smpi/mpi.h \
 /work/main/src/interpose/../runtime/native.h \
 /work/main/src/interpose/../runtime/call.h include/colibri.h \
 /work/main/src/interpose/../runtime/../kernels/dense.h \
 /work/main/src/interpose/../runtime/../sched/schedule.h \
 /work/main/src/interpose/../runtime/state/node.h \
 /work/main/src/interpose/../runtime/state/state.h \
 /work/main/src/interpose/../runtime/state/../../sched/schedule.h \
 /work/main/src/interpose/../runtime/state/state.h \
 /work/main/src/interpose/../runtime/operation.h \
 /work/main/src/interpose/../runtime/executor.h \
 /work/main/src/interpose/../runtime/progress.h \
 /work/main/src/interpose/../runtime/stats.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/interpose/../runtime/handles.h:
/usr/include/smpi/mpi.h:
/work/main/src/interpose/../runtime/native.h:
/work/main/src/interpose/../runtime/call.h:
include/colibri.h:
/work/main/src/interpose/../runtime/../kernels/dense.h:
/work/main/src/interpose/../runtime/../sched/schedule.h:
/work/main/src/interpose/../runtime/state/node.h:
/work/main/src/interpose/../runtime/state/state.h:
/work/main/src/interpose/../runtime/state/../../sched/schedule.h:
/work/main/src/interpose/../runtime/state/state.h:
/work/main/src/interpose/../runtime/operation.h:
/work/main/src/interpose/../runtime/executor.h:
/work/main/src/interpose/../runtime/progress.h:
/work/main/src/interpose/../runtime/stats.h:
