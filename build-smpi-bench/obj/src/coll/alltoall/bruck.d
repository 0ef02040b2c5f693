build-smpi-bench/obj/src/coll/alltoall/bruck.o: \
 /work/main/src/coll/alltoall/bruck.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/alltoall/../../patterns/radix.h \
 /work/main/src/coll/alltoall/../algorithm.h \
 /work/main/src/coll/alltoall/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/alltoall/../../patterns/radix.h:
/work/main/src/coll/alltoall/../algorithm.h:
/work/main/src/coll/alltoall/../../sched/schedule.h:
