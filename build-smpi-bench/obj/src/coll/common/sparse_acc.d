build-smpi-bench/obj/src/coll/common/sparse_acc.o: \
 /work/main/src/coll/common/sparse_acc.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/common/sparse_acc.h \
 /work/main/src/coll/common/../algorithm.h \
 /work/main/src/coll/common/../../sched/schedule.h \
 /work/main/src/coll/common/../../kernels/sparse.h \
 /work/main/src/coll/common/../../patterns/halving.h \
 /work/main/src/coll/common/../../patterns/butterfly.h \
 /work/main/src/coll/common/../../patterns/fold.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/common/sparse_acc.h:
/work/main/src/coll/common/../algorithm.h:
/work/main/src/coll/common/../../sched/schedule.h:
/work/main/src/coll/common/../../kernels/sparse.h:
/work/main/src/coll/common/../../patterns/halving.h:
/work/main/src/coll/common/../../patterns/butterfly.h:
/work/main/src/coll/common/../../patterns/fold.h:
