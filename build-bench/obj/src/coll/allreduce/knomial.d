build-bench/obj/src/coll/allreduce/knomial.o: \
 src/coll/allreduce/knomial.c src/coll/allreduce/../../patterns/fold.h \
 src/coll/allreduce/../../patterns/knomial.h \
 src/coll/allreduce/../algorithm.h \
 src/coll/allreduce/../../sched/schedule.h
src/coll/allreduce/../../patterns/fold.h:
src/coll/allreduce/../../patterns/knomial.h:
src/coll/allreduce/../algorithm.h:
src/coll/allreduce/../../sched/schedule.h:
