build-bench/obj/src/coll/reduce/sparse_binomial.o: \
 src/coll/reduce/sparse_binomial.c \
 src/coll/reduce/../../patterns/binomial.h \
 src/coll/reduce/../../patterns/fold.h src/coll/reduce/../algorithm.h \
 src/coll/reduce/../../sched/schedule.h \
 src/coll/reduce/../common/sparse_acc.h \
 src/coll/reduce/../common/../algorithm.h
src/coll/reduce/../../patterns/binomial.h:
src/coll/reduce/../../patterns/fold.h:
src/coll/reduce/../algorithm.h:
src/coll/reduce/../../sched/schedule.h:
src/coll/reduce/../common/sparse_acc.h:
src/coll/reduce/../common/../algorithm.h:
