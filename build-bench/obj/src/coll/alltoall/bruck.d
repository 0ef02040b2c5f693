build-bench/obj/src/coll/alltoall/bruck.o: src/coll/alltoall/bruck.c \
 src/coll/alltoall/../../patterns/radix.h \
 src/coll/alltoall/../algorithm.h \
 src/coll/alltoall/../../sched/schedule.h
src/coll/alltoall/../../patterns/radix.h:
src/coll/alltoall/../algorithm.h:
src/coll/alltoall/../../sched/schedule.h:
