build-smpi-bench/obj/src/coll/allreduce/ring.o: \
 /work/main/src/coll/allreduce/ring.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/allreduce/../../patterns/ring.h \
 /work/main/src/coll/allreduce/../algorithm.h \
 /work/main/src/coll/allreduce/../../sched/schedule.h \
 /work/main/src/coll/allreduce/../common/ring.h \
 /work/main/src/coll/allreduce/../common/partial.h \
 /work/main/src/coll/allreduce/../common/../algorithm.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/allreduce/../../patterns/ring.h:
/work/main/src/coll/allreduce/../algorithm.h:
/work/main/src/coll/allreduce/../../sched/schedule.h:
/work/main/src/coll/allreduce/../common/ring.h:
/work/main/src/coll/allreduce/../common/partial.h:
/work/main/src/coll/allreduce/../common/../algorithm.h:
