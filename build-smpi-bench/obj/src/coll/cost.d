build-smpi-bench/obj/src/coll/cost.o: /work/main/src/coll/cost.c \
 /usr/include/smpi/smpi_helpers.h /work/main/src/coll/../patterns/nodes.h \
 /work/main/src/coll/algorithm.h /work/main/src/coll/../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/../patterns/nodes.h:
/work/main/src/coll/algorithm.h:
/work/main/src/coll/../sched/schedule.h:
