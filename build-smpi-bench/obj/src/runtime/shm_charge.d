build-smpi-bench/obj/src/runtime/shm_charge.o: \
 /work/main/src/runtime/shm_charge.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/shm_charge.h /work/main/src/runtime/call.h \
 /usr/include/smpi/mpi.h include/colibri.h \
 /work/main/src/runtime/../kernels/dense.h \
 /work/main/src/runtime/../sched/schedule.h \
 /work/main/src/runtime/state/node.h /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/../config/config.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/shm_charge.h:
/work/main/src/runtime/call.h:
/usr/include/smpi/mpi.h:
include/colibri.h:
/work/main/src/runtime/../kernels/dense.h:
/work/main/src/runtime/../sched/schedule.h:
/work/main/src/runtime/state/node.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/../config/config.h:
