build-bench/obj/src/coll/common/binomial.o: src/coll/common/binomial.c \
 src/coll/common/binomial.h src/coll/common/partial.h \
 src/coll/common/../algorithm.h src/coll/common/../../sched/schedule.h \
 src/coll/common/../../patterns/binomial.h \
 src/coll/common/../../patterns/fold.h
src/coll/common/binomial.h:
src/coll/common/partial.h:
src/coll/common/../algorithm.h:
src/coll/common/../../sched/schedule.h:
src/coll/common/../../patterns/binomial.h:
src/coll/common/../../patterns/fold.h:
