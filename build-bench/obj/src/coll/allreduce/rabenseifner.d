build-bench/obj/src/coll/allreduce/rabenseifner.o: \
 src/coll/allreduce/rabenseifner.c src/coll/allreduce/../halving_steps.h \
 src/coll/allreduce/../../patterns/halving.h \
 src/coll/allreduce/../../patterns/butterfly.h \
 src/coll/allreduce/../../patterns/fold.h \
 src/coll/allreduce/../algorithm.h \
 src/coll/allreduce/../../sched/schedule.h
src/coll/allreduce/../halving_steps.h:
src/coll/allreduce/../../patterns/halving.h:
src/coll/allreduce/../../patterns/butterfly.h:
src/coll/allreduce/../../patterns/fold.h:
src/coll/allreduce/../algorithm.h:
src/coll/allreduce/../../sched/schedule.h:
