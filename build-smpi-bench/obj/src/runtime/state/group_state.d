build-smpi-bench/obj/src/runtime/state/group_state.o: \
 /work/main/src/runtime/state/group_state.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/state/../../config/config.h include/colibri.h \
 /usr/include/smpi/mpi.h /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/setup.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/state/../../config/config.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/setup.h:
