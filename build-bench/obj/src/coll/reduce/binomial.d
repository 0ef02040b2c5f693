build-bench/obj/src/coll/reduce/binomial.o: src/coll/reduce/binomial.c \
 src/coll/reduce/../algorithm.h src/coll/reduce/../../sched/schedule.h \
 src/coll/reduce/../common/binomial.h src/coll/reduce/../common/partial.h \
 src/coll/reduce/../common/../algorithm.h
src/coll/reduce/../algorithm.h:
src/coll/reduce/../../sched/schedule.h:
src/coll/reduce/../common/binomial.h:
src/coll/reduce/../common/partial.h:
src/coll/reduce/../common/../algorithm.h:
