build-smpi-bench/obj/src/runtime/stats.o: /work/main/src/runtime/stats.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/../select/catalog.h include/colibri.h \
 /usr/include/smpi/mpi.h \
 /work/main/src/runtime/../select/../coll/algorithm.h \
 /work/main/src/runtime/../select/../coll/../sched/schedule.h \
 /work/main/src/runtime/../config/config.h /work/main/src/runtime/stats.h \
 /work/main/src/runtime/call.h /work/main/src/runtime/../kernels/dense.h \
 /work/main/src/runtime/../sched/schedule.h \
 /work/main/src/runtime/state/node.h /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/state.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/../select/catalog.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/../select/../coll/algorithm.h:
/work/main/src/runtime/../select/../coll/../sched/schedule.h:
/work/main/src/runtime/../config/config.h:
/work/main/src/runtime/stats.h:
/work/main/src/runtime/call.h:
/work/main/src/runtime/../kernels/dense.h:
/work/main/src/runtime/../sched/schedule.h:
/work/main/src/runtime/state/node.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/state.h:
