build-smpi-bench/obj/src/coll/alltoall/scattered.o: \
 /work/main/src/coll/alltoall/scattered.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/alltoall/../algorithm.h \
 /work/main/src/coll/alltoall/../../sched/schedule.h \
 /work/main/src/coll/alltoall/../common/exchange.h \
 /work/main/src/coll/alltoall/../common/../algorithm.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/alltoall/../algorithm.h:
/work/main/src/coll/alltoall/../../sched/schedule.h:
/work/main/src/coll/alltoall/../common/exchange.h:
/work/main/src/coll/alltoall/../common/../algorithm.h:
