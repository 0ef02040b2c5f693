build-bench/obj/src/interpose/requests.o: src/interpose/requests.c \
 src/interpose/../runtime/operation.h src/interpose/../runtime/executor.h \
 src/interpose/../runtime/call.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 include/colibri.h src/interpose/../runtime/../kernels/dense.h \
 src/interpose/../runtime/../sched/schedule.h \
 src/interpose/../runtime/state/node.h \
 src/interpose/../runtime/state/state.h \
 src/interpose/../runtime/state/../../sched/schedule.h \
 src/interpose/../runtime/state/state.h
src/interpose/../runtime/operation.h:
src/interpose/../runtime/executor.h:
src/interpose/../runtime/call.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
include/colibri.h:
src/interpose/../runtime/../kernels/dense.h:
src/interpose/../runtime/../sched/schedule.h:
src/interpose/../runtime/state/node.h:
src/interpose/../runtime/state/state.h:
src/interpose/../runtime/state/../../sched/schedule.h:
src/interpose/../runtime/state/state.h:
