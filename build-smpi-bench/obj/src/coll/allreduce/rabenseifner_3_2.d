build-smpi-bench/obj/src/coll/allreduce/rabenseifner_3_2.o: \
 /work/main/src/coll/allreduce/rabenseifner_3_2.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/allreduce/../../patterns/three_two.h \
 /work/main/src/coll/allreduce/../../patterns/halving.h \
 /work/main/src/coll/allreduce/../../patterns/butterfly.h \
 /work/main/src/coll/allreduce/../../patterns/fold.h \
 /work/main/src/coll/allreduce/../halving_steps.h \
 /work/main/src/coll/allreduce/../../patterns/halving.h \
 /work/main/src/coll/allreduce/../algorithm.h \
 /work/main/src/coll/allreduce/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/allreduce/../../patterns/three_two.h:
/work/main/src/coll/allreduce/../../patterns/halving.h:
/work/main/src/coll/allreduce/../../patterns/butterfly.h:
/work/main/src/coll/allreduce/../../patterns/fold.h:
/work/main/src/coll/allreduce/../halving_steps.h:
/work/main/src/coll/allreduce/../../patterns/halving.h:
/work/main/src/coll/allreduce/../algorithm.h:
/work/main/src/coll/allreduce/../../sched/schedule.h:
