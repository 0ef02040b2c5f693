build-bench/obj/src/runtime/stats.o: src/runtime/stats.c \
 src/runtime/../select/catalog.h include/colibri.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/runtime/../select/../coll/algorithm.h \
 src/runtime/../select/../coll/../sched/schedule.h \
 src/runtime/../config/config.h src/runtime/stats.h src/runtime/call.h \
 src/runtime/../kernels/dense.h src/runtime/../sched/schedule.h \
 src/runtime/state/node.h src/runtime/state/state.h \
 src/runtime/state/../../sched/schedule.h src/runtime/state/state.h
src/runtime/../select/catalog.h:
include/colibri.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/runtime/../select/../coll/algorithm.h:
src/runtime/../select/../coll/../sched/schedule.h:
src/runtime/../config/config.h:
src/runtime/stats.h:
src/runtime/call.h:
src/runtime/../kernels/dense.h:
src/runtime/../sched/schedule.h:
src/runtime/state/node.h:
src/runtime/state/state.h:
src/runtime/state/../../sched/schedule.h:
src/runtime/state/state.h:
