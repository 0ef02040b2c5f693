build-bench/obj/src/coll/alltoallv/sloavx.o: src/coll/alltoallv/sloavx.c \
 src/coll/alltoallv/../../patterns/node_segment.h \
 src/coll/alltoallv/../algorithm.h \
 src/coll/alltoallv/../../sched/schedule.h \
 src/coll/alltoallv/../common/sloav_exchange.h \
 src/coll/alltoallv/../common/../../sched/schedule.h \
 src/coll/alltoallv/../../patterns/radix.h
src/coll/alltoallv/../../patterns/node_segment.h:
src/coll/alltoallv/../algorithm.h:
src/coll/alltoallv/../../sched/schedule.h:
src/coll/alltoallv/../common/sloav_exchange.h:
src/coll/alltoallv/../common/../../sched/schedule.h:
src/coll/alltoallv/../../patterns/radix.h:
