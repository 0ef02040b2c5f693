build-bench/obj/src/coll/reduce/rabenseifner.o: \
 src/coll/reduce/rabenseifner.c src/coll/reduce/../halving_steps.h \
 src/coll/reduce/../../patterns/halving.h \
 src/coll/reduce/../../patterns/butterfly.h \
 src/coll/reduce/../../patterns/fold.h src/coll/reduce/../algorithm.h \
 src/coll/reduce/../../sched/schedule.h
src/coll/reduce/../halving_steps.h:
src/coll/reduce/../../patterns/halving.h:
src/coll/reduce/../../patterns/butterfly.h:
src/coll/reduce/../../patterns/fold.h:
src/coll/reduce/../algorithm.h:
src/coll/reduce/../../sched/schedule.h:
