build-bench/obj/src/coll/alltoallv/sloav.o: src/coll/alltoallv/sloav.c \
 src/coll/alltoallv/../../patterns/radix.h \
 src/coll/alltoallv/../algorithm.h \
 src/coll/alltoallv/../../sched/schedule.h \
 src/coll/alltoallv/../common/sloav_exchange.h \
 src/coll/alltoallv/../common/../../sched/schedule.h
src/coll/alltoallv/../../patterns/radix.h:
src/coll/alltoallv/../algorithm.h:
src/coll/alltoallv/../../sched/schedule.h:
src/coll/alltoallv/../common/sloav_exchange.h:
src/coll/alltoallv/../common/../../sched/schedule.h:
