build-smpi-bench/obj/src/runtime/state/sched_cache.o: \
 /work/main/src/runtime/state/sched_cache.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/state/../../select/catalog.h include/colibri.h \
 /usr/include/smpi/mpi.h \
 /work/main/src/runtime/state/../../select/../coll/algorithm.h \
 /work/main/src/runtime/state/../../select/../coll/../sched/schedule.h \
 /work/main/src/runtime/state/../../config/config.h \
 /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/setup.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/state/../../select/catalog.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/state/../../select/../coll/algorithm.h:
/work/main/src/runtime/state/../../select/../coll/../sched/schedule.h:
/work/main/src/runtime/state/../../config/config.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/setup.h:
