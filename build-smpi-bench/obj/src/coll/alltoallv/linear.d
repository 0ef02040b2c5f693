build-smpi-bench/obj/src/coll/alltoallv/linear.o: \
 /work/main/src/coll/alltoallv/linear.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/alltoallv/../algorithm.h \
 /work/main/src/coll/alltoallv/../../sched/schedule.h \
 /work/main/src/coll/alltoallv/../common/exchange.h \
 /work/main/src/coll/alltoallv/../common/../algorithm.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/alltoallv/../algorithm.h:
/work/main/src/coll/alltoallv/../../sched/schedule.h:
/work/main/src/coll/alltoallv/../common/exchange.h:
/work/main/src/coll/alltoallv/../common/../algorithm.h:
