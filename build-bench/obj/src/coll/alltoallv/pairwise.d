build-bench/obj/src/coll/alltoallv/pairwise.o: \
 src/coll/alltoallv/pairwise.c src/coll/alltoallv/../algorithm.h \
 src/coll/alltoallv/../../sched/schedule.h \
 src/coll/alltoallv/../common/exchange.h \
 src/coll/alltoallv/../common/../algorithm.h
src/coll/alltoallv/../algorithm.h:
src/coll/alltoallv/../../sched/schedule.h:
src/coll/alltoallv/../common/exchange.h:
src/coll/alltoallv/../common/../algorithm.h:
