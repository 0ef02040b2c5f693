build-bench/obj/src/runtime/validate.o: src/runtime/validate.c \
 src/runtime/validate.h /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 include/colibri.h src/runtime/../kernels/dense.h
src/runtime/validate.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
include/colibri.h:
src/runtime/../kernels/dense.h:
