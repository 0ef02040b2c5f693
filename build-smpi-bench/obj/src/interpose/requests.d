build-smpi-bench/obj/src/interpose/requests.o: \
 /work/main/src/interpose/requests.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/interpose/../runtime/operation.h \
 /work/main/src/interpose/../runtime/executor.h \
 /work/main/src/interpose/../runtime/call.h /usr/include/smpi/mpi.h \
 include/colibri.h /work/main/src/interpose/../runtime/../kernels/dense.h \
 /work/main/src/interpose/../runtime/../sched/schedule.h \
 /work/main/src/interpose/../runtime/state/node.h \
 /work/main/src/interpose/../runtime/state/state.h \
 /work/main/src/interpose/../runtime/state/../../sched/schedule.h \
 /work/main/src/interpose/../runtime/state/state.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/interpose/../runtime/operation.h:
/work/main/src/interpose/../runtime/executor.h:
/work/main/src/interpose/../runtime/call.h:
/usr/include/smpi/mpi.h:
include/colibri.h:
/work/main/src/interpose/../runtime/../kernels/dense.h:
/work/main/src/interpose/../runtime/../sched/schedule.h:
/work/main/src/interpose/../runtime/state/node.h:
/work/main/src/interpose/../runtime/state/state.h:
/work/main/src/interpose/../runtime/state/../../sched/schedule.h:
/work/main/src/interpose/../runtime/state/state.h:
