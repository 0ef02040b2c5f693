build-bench/obj/src/runtime/call.o: src/runtime/call.c src/runtime/call.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 include/colibri.h src/runtime/../kernels/dense.h \
 src/runtime/../sched/schedule.h src/runtime/state/node.h \
 src/runtime/state/state.h src/runtime/state/../../sched/schedule.h \
 src/runtime/state/state.h
src/runtime/call.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
include/colibri.h:
src/runtime/../kernels/dense.h:
src/runtime/../sched/schedule.h:
src/runtime/state/node.h:
src/runtime/state/state.h:
src/runtime/state/../../sched/schedule.h:
src/runtime/state/state.h:
