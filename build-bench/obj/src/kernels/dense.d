build-bench/obj/src/kernels/dense.o: src/kernels/dense.c \
 src/kernels/dense.h /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/kernels/sparse.h
src/kernels/dense.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/kernels/sparse.h:
