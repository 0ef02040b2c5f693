build-smpi-bench/obj/src/coll/allreduce/sparse_rabenseifner.o: \
 /work/main/src/coll/allreduce/sparse_rabenseifner.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/allreduce/../../patterns/halving.h \
 /work/main/src/coll/allreduce/../../patterns/butterfly.h \
 /work/main/src/coll/allreduce/../../patterns/fold.h \
 /work/main/src/coll/allreduce/../algorithm.h \
 /work/main/src/coll/allreduce/../../sched/schedule.h \
 /work/main/src/coll/allreduce/../common/sparse_acc.h \
 /work/main/src/coll/allreduce/../common/../algorithm.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/allreduce/../../patterns/halving.h:
/work/main/src/coll/allreduce/../../patterns/butterfly.h:
/work/main/src/coll/allreduce/../../patterns/fold.h:
/work/main/src/coll/allreduce/../algorithm.h:
/work/main/src/coll/allreduce/../../sched/schedule.h:
/work/main/src/coll/allreduce/../common/sparse_acc.h:
/work/main/src/coll/allreduce/../common/../algorithm.h:
