build-bench/obj/src/coll/cost.o: src/coll/cost.c \
 src/coll/../patterns/nodes.h src/coll/algorithm.h \
 src/coll/../sched/schedule.h
src/coll/../patterns/nodes.h:
src/coll/algorithm.h:
src/coll/../sched/schedule.h:
