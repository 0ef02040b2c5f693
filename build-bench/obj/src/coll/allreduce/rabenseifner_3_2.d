build-bench/obj/src/coll/allreduce/rabenseifner_3_2.o: \
 src/coll/allreduce/rabenseifner_3_2.c \
 src/coll/allreduce/../../patterns/three_two.h \
 src/coll/allreduce/../../patterns/halving.h \
 src/coll/allreduce/../../patterns/butterfly.h \
 src/coll/allreduce/../../patterns/fold.h \
 src/coll/allreduce/../halving_steps.h \
 src/coll/allreduce/../../patterns/halving.h \
 src/coll/allreduce/../algorithm.h \
 src/coll/allreduce/../../sched/schedule.h
src/coll/allreduce/../../patterns/three_two.h:
src/coll/allreduce/../../patterns/halving.h:
src/coll/allreduce/../../patterns/butterfly.h:
src/coll/allreduce/../../patterns/fold.h:
src/coll/allreduce/../halving_steps.h:
src/coll/allreduce/../../patterns/halving.h:
src/coll/allreduce/../algorithm.h:
src/coll/allreduce/../../sched/schedule.h:
