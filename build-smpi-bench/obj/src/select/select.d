build-smpi-bench/obj/src/select/select.o: /work/main/src/select/select.c \
 /usr/include/smpi/smpi_helpers.h /work/main/src/select/select.h \
 /work/main/src/select/catalog.h include/colibri.h \
 /usr/include/smpi/mpi.h /work/main/src/select/../coll/algorithm.h \
 /work/main/src/select/../coll/../sched/schedule.h \
 /work/main/src/select/../config/config.h \
 /work/main/src/select/../config/tuning.h \
 /work/main/src/select/../patterns/node_reduce.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/select/select.h:
/work/main/src/select/catalog.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/select/../coll/algorithm.h:
/work/main/src/select/../coll/../sched/schedule.h:
/work/main/src/select/../config/config.h:
/work/main/src/select/../config/tuning.h:
/work/main/src/select/../patterns/node_reduce.h:
