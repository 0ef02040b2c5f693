build-bench/obj/src/api/introspect.o: src/api/introspect.c \
 src/api/../select/select.h src/api/../select/catalog.h include/colibri.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/api/../select/../coll/algorithm.h \
 src/api/../select/../coll/../sched/schedule.h \
 src/api/../runtime/executor.h src/api/../runtime/call.h \
 src/api/../runtime/../kernels/dense.h \
 src/api/../runtime/../sched/schedule.h src/api/../runtime/state/node.h \
 src/api/../runtime/state/state.h \
 src/api/../runtime/state/../../sched/schedule.h \
 src/api/../runtime/state/state.h src/api/../runtime/native.h \
 src/api/../runtime/state/node.h src/api/../runtime/stats.h
src/api/../select/select.h:
src/api/../select/catalog.h:
include/colibri.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/api/../select/../coll/algorithm.h:
src/api/../select/../coll/../sched/schedule.h:
src/api/../runtime/executor.h:
src/api/../runtime/call.h:
src/api/../runtime/../kernels/dense.h:
src/api/../runtime/../sched/schedule.h:
src/api/../runtime/state/node.h:
src/api/../runtime/state/state.h:
src/api/../runtime/state/../../sched/schedule.h:
src/api/../runtime/state/state.h:
src/api/../runtime/native.h:
src/api/../runtime/state/node.h:
src/api/../runtime/stats.h:
