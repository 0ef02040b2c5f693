build-bench/obj/src/runtime/state/setup.o: src/runtime/state/setup.c \
 src/runtime/state/setup.h include/colibri.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h
src/runtime/state/setup.h:
include/colibri.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
