build-smpi-bench/obj/src/runtime/state/setup.o: \
 /work/main/src/runtime/state/setup.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/state/setup.h include/colibri.h \
 /usr/include/smpi/mpi.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/state/setup.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
