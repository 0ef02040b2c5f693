build-smpi-bench/obj/src/coll/allreduce/knomial.o: \
 /work/main/src/coll/allreduce/knomial.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/allreduce/../../patterns/fold.h \
 /work/main/src/coll/allreduce/../../patterns/knomial.h \
 /work/main/src/coll/allreduce/../algorithm.h \
 /work/main/src/coll/allreduce/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/allreduce/../../patterns/fold.h:
/work/main/src/coll/allreduce/../../patterns/knomial.h:
/work/main/src/coll/allreduce/../algorithm.h:
/work/main/src/coll/allreduce/../../sched/schedule.h:
