build-bench/obj/src/coll/alltoall/pairwise.o: \
 src/coll/alltoall/pairwise.c src/coll/alltoall/../algorithm.h \
 src/coll/alltoall/../../sched/schedule.h \
 src/coll/alltoall/../common/exchange.h \
 src/coll/alltoall/../common/../algorithm.h
src/coll/alltoall/../algorithm.h:
src/coll/alltoall/../../sched/schedule.h:
src/coll/alltoall/../common/exchange.h:
src/coll/alltoall/../common/../algorithm.h:
