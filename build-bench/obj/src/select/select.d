build-bench/obj/src/select/select.o: src/select/select.c \
 src/select/select.h src/select/catalog.h include/colibri.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/select/../coll/algorithm.h src/select/../coll/../sched/schedule.h \
 src/select/../config/config.h src/select/../patterns/node_reduce.h
src/select/select.h:
src/select/catalog.h:
include/colibri.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/select/../coll/algorithm.h:
src/select/../coll/../sched/schedule.h:
src/select/../config/config.h:
src/select/../patterns/node_reduce.h:
