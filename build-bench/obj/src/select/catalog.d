build-bench/obj/src/select/catalog.o: src/select/catalog.c \
 src/select/catalog.h include/colibri.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/select/../coll/algorithm.h src/select/../coll/../sched/schedule.h \
 src/select/../patterns/node_reduce.h
src/select/catalog.h:
include/colibri.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/select/../coll/algorithm.h:
src/select/../coll/../sched/schedule.h:
src/select/../patterns/node_reduce.h:
