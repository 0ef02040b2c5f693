build-smpi-bench/obj/src/coll/alltoallv/sloavx.o: \
 /work/main/src/coll/alltoallv/sloavx.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/alltoallv/../../patterns/node_segment.h \
 /work/main/src/coll/alltoallv/../algorithm.h \
 /work/main/src/coll/alltoallv/../../sched/schedule.h \
 /work/main/src/coll/alltoallv/../common/sloav_exchange.h \
 /work/main/src/coll/alltoallv/../common/../../sched/schedule.h \
 /work/main/src/coll/alltoallv/../../patterns/radix.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/alltoallv/../../patterns/node_segment.h:
/work/main/src/coll/alltoallv/../algorithm.h:
/work/main/src/coll/alltoallv/../../sched/schedule.h:
/work/main/src/coll/alltoallv/../common/sloav_exchange.h:
/work/main/src/coll/alltoallv/../common/../../sched/schedule.h:
/work/main/src/coll/alltoallv/../../patterns/radix.h:
