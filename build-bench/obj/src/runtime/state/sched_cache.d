build-bench/obj/src/runtime/state/sched_cache.o: \
 src/runtime/state/sched_cache.c src/runtime/state/../../select/catalog.h \
 include/colibri.h /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/runtime/state/../../select/../coll/algorithm.h \
 src/runtime/state/../../select/../coll/../sched/schedule.h \
 src/runtime/state/../../config/config.h src/runtime/state/state.h \
 src/runtime/state/../../sched/schedule.h src/runtime/state/setup.h
src/runtime/state/../../select/catalog.h:
include/colibri.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/runtime/state/../../select/../coll/algorithm.h:
src/runtime/state/../../select/../coll/../sched/schedule.h:
src/runtime/state/../../config/config.h:
src/runtime/state/state.h:
src/runtime/state/../../sched/schedule.h:
src/runtime/state/setup.h:
