build-smpi-bench/obj/src/coll/reduce/rabenseifner.o: \
 /work/main/src/coll/reduce/rabenseifner.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/reduce/../halving_steps.h \
 /work/main/src/coll/reduce/../../patterns/halving.h \
 /work/main/src/coll/reduce/../../patterns/butterfly.h \
 /work/main/src/coll/reduce/../../patterns/fold.h \
 /work/main/src/coll/reduce/../algorithm.h \
 /work/main/src/coll/reduce/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/reduce/../halving_steps.h:
/work/main/src/coll/reduce/../../patterns/halving.h:
/work/main/src/coll/reduce/../../patterns/butterfly.h:
/work/main/src/coll/reduce/../../patterns/fold.h:
/work/main/src/coll/reduce/../algorithm.h:
/work/main/src/coll/reduce/../../sched/schedule.h:
