build-smpi-bench/obj/src/api/reductions.o: \
 /work/main/src/api/reductions.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/api/../select/select.h \
 /work/main/src/api/../select/catalog.h include/colibri.h \
 /usr/include/smpi/mpi.h /work/main/src/api/../select/../coll/algorithm.h \
 /work/main/src/api/../select/../coll/../sched/schedule.h \
 /work/main/src/api/../config/config.h \
 /work/main/src/api/../kernels/sparse.h \
 /work/main/src/api/../patterns/node_reduce.h \
 /work/main/src/api/../runtime/native.h \
 /work/main/src/api/../runtime/call.h \
 /work/main/src/api/../runtime/../kernels/dense.h \
 /work/main/src/api/../runtime/../sched/schedule.h \
 /work/main/src/api/../runtime/state/node.h \
 /work/main/src/api/../runtime/state/state.h \
 /work/main/src/api/../runtime/state/../../sched/schedule.h \
 /work/main/src/api/../runtime/state/state.h \
 /work/main/src/api/../runtime/operation.h \
 /work/main/src/api/../runtime/executor.h \
 /work/main/src/api/../runtime/agree.h \
 /work/main/src/api/../runtime/executor.h \
 /work/main/src/api/../runtime/stats.h \
 /work/main/src/api/../runtime/state/node.h \
 /work/main/src/api/../runtime/validate.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/api/../select/select.h:
/work/main/src/api/../select/catalog.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/api/../select/../coll/algorithm.h:
/work/main/src/api/../select/../coll/../sched/schedule.h:
/work/main/src/api/../config/config.h:
/work/main/src/api/../kernels/sparse.h:
/work/main/src/api/../patterns/node_reduce.h:
/work/main/src/api/../runtime/native.h:
/work/main/src/api/../runtime/call.h:
/work/main/src/api/../runtime/../kernels/dense.h:
/work/main/src/api/../runtime/../sched/schedule.h:
/work/main/src/api/../runtime/state/node.h:
/work/main/src/api/../runtime/state/state.h:
/work/main/src/api/../runtime/state/../../sched/schedule.h:
/work/main/src/api/../runtime/state/state.h:
/work/main/src/api/../runtime/operation.h:
/work/main/src/api/../runtime/executor.h:
/work/main/src/api/../runtime/agree.h:
/work/main/src/api/../runtime/executor.h:
/work/main/src/api/../runtime/stats.h:
/work/main/src/api/../runtime/state/node.h:
/work/main/src/api/../runtime/validate.h:
