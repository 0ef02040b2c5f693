build-bench/obj/src/coll/common/sparse_acc.o: \
 src/coll/common/sparse_acc.c src/coll/common/sparse_acc.h \
 src/coll/common/../algorithm.h src/coll/common/../../sched/schedule.h \
 src/coll/common/../../kernels/sparse.h \
 src/coll/common/../../patterns/halving.h \
 src/coll/common/../../patterns/butterfly.h \
 src/coll/common/../../patterns/fold.h
src/coll/common/sparse_acc.h:
src/coll/common/../algorithm.h:
src/coll/common/../../sched/schedule.h:
src/coll/common/../../kernels/sparse.h:
src/coll/common/../../patterns/halving.h:
src/coll/common/../../patterns/butterfly.h:
src/coll/common/../../patterns/fold.h:
