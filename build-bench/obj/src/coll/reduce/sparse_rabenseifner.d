build-bench/obj/src/coll/reduce/sparse_rabenseifner.o: \
 src/coll/reduce/sparse_rabenseifner.c \
 src/coll/reduce/../../patterns/halving.h \
 src/coll/reduce/../../patterns/butterfly.h \
 src/coll/reduce/../../patterns/fold.h src/coll/reduce/../algorithm.h \
 src/coll/reduce/../../sched/schedule.h \
 src/coll/reduce/../common/sparse_acc.h \
 src/coll/reduce/../common/../algorithm.h
src/coll/reduce/../../patterns/halving.h:
src/coll/reduce/../../patterns/butterfly.h:
src/coll/reduce/../../patterns/fold.h:
src/coll/reduce/../algorithm.h:
src/coll/reduce/../../sched/schedule.h:
src/coll/reduce/../common/sparse_acc.h:
src/coll/reduce/../common/../algorithm.h:
