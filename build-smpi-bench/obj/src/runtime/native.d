build-smpi-bench/obj/src/runtime/native.o: \
 /work/main/src/runtime/native.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/native.h /usr/include/smpi/mpi.h \
 /work/main/src/runtime/call.h include/colibri.h \
 /work/main/src/runtime/../kernels/dense.h \
 /work/main/src/runtime/../sched/schedule.h \
 /work/main/src/runtime/state/node.h /work/main/src/runtime/state/state.h \
 /work/main/src/runtime/state/../../sched/schedule.h \
 /work/main/src/runtime/state/state.h /work/main/src/runtime/stats.h \
 /work/main/src/runtime/validate.h \
 /work/main/src/runtime/../config/config.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/native.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/call.h:
include/colibri.h:
/work/main/src/runtime/../kernels/dense.h:
/work/main/src/runtime/../sched/schedule.h:
/work/main/src/runtime/state/node.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/state/../../sched/schedule.h:
/work/main/src/runtime/state/state.h:
/work/main/src/runtime/stats.h:
/work/main/src/runtime/validate.h:
/work/main/src/runtime/../config/config.h:
