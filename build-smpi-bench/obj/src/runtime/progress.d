build-smpi-bench/obj/src/runtime/progress.o: \
 /work/main/src/runtime/progress.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/../config/config.h include/colibri.h \
 /usr/include/smpi/mpi.h /work/main/src/runtime/progress.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/../config/config.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/progress.h:
