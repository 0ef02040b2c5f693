build-smpi-bench/obj/src/coll/reduce/sparse_rabenseifner.o: \
 /work/main/src/coll/reduce/sparse_rabenseifner.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/reduce/../../patterns/halving.h \
 /work/main/src/coll/reduce/../../patterns/butterfly.h \
 /work/main/src/coll/reduce/../../patterns/fold.h \
 /work/main/src/coll/reduce/../algorithm.h \
 /work/main/src/coll/reduce/../../sched/schedule.h \
 /work/main/src/coll/reduce/../common/sparse_acc.h \
 /work/main/src/coll/reduce/../common/../algorithm.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/reduce/../../patterns/halving.h:
/work/main/src/coll/reduce/../../patterns/butterfly.h:
/work/main/src/coll/reduce/../../patterns/fold.h:
/work/main/src/coll/reduce/../algorithm.h:
/work/main/src/coll/reduce/../../sched/schedule.h:
/work/main/src/coll/reduce/../common/sparse_acc.h:
/work/main/src/coll/reduce/../common/../algorithm.h:
