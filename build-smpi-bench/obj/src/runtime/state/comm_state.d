build-smpi-bench/obj/src/runtime/state/comm_state.o: \
 /work/main/src/runtime/state/comm_state.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/state/../../config/config.h include/colibri.h \
 /usr/include/smpi/mpi.h /work/main/src/runtime/state/node.h \
 /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/setup.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/state/../../config/config.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/state/node.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/setup.h:
