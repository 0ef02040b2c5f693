build-smpi-bench/obj/src/coll/allreduce/reduce_bcast.o: \
 /work/main/src/coll/allreduce/reduce_bcast.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/allreduce/../../patterns/fold.h \
 /work/main/src/coll/allreduce/../algorithm.h \
 /work/main/src/coll/allreduce/../../sched/schedule.h \
 /work/main/src/coll/allreduce/../common/binomial.h \
 /work/main/src/coll/allreduce/../common/partial.h \
 /work/main/src/coll/allreduce/../common/../algorithm.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/allreduce/../../patterns/fold.h:
/work/main/src/coll/allreduce/../algorithm.h:
/work/main/src/coll/allreduce/../../sched/schedule.h:
/work/main/src/coll/allreduce/../common/binomial.h:
/work/main/src/coll/allreduce/../common/partial.h:
/work/main/src/coll/allreduce/../common/../algorithm.h:
