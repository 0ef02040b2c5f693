build-bench/obj/src/runtime/progress.o: src/runtime/progress.c \
 src/runtime/../config/config.h include/colibri.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/runtime/progress.h
src/runtime/../config/config.h:
include/colibri.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/runtime/progress.h:
