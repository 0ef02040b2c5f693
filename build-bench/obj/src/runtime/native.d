build-bench/obj/src/runtime/native.o: src/runtime/native.c \
 src/runtime/native.h /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/runtime/call.h include/colibri.h src/runtime/../kernels/dense.h \
 src/runtime/../sched/schedule.h src/runtime/state/node.h \
 src/runtime/state/state.h src/runtime/state/../../sched/schedule.h \
 src/runtime/state/state.h src/runtime/validate.h
src/runtime/native.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/runtime/call.h:
include/colibri.h:
src/runtime/../kernels/dense.h:
src/runtime/../sched/schedule.h:
src/runtime/state/node.h:
src/runtime/state/state.h:
src/runtime/state/../../sched/schedule.h:
src/runtime/state/state.h:
src/runtime/validate.h:
