build-smpi-bench/obj/src/select/catalog.o: \
 /work/main/src/select/catalog.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/select/catalog.h include/colibri.h \
 /usr/include/smpi/mpi.h /work/main/src/select/../coll/algorithm.h \
 /work/main/src/select/../coll/../sched/schedule.h \
 /work/main/src/select/../patterns/node_reduce.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/select/catalog.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/select/../coll/algorithm.h:
/work/main/src/select/../coll/../sched/schedule.h:
/work/main/src/select/../patterns/node_reduce.h:
