build-bench/obj/src/runtime/state/group_state.o: \
 src/runtime/state/group_state.c src/runtime/state/../../config/config.h \
 include/colibri.h /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/runtime/state/state.h src/runtime/state/../../sched/schedule.h \
 src/runtime/state/setup.h
src/runtime/state/../../config/config.h:
include/colibri.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/runtime/state/state.h:
src/runtime/state/../../sched/schedule.h:
src/runtime/state/setup.h:
