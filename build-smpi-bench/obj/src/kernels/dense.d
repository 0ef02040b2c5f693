build-smpi-bench/obj/src/kernels/dense.o: /work/main/src/kernels/dense.c \
 /usr/include/smpi/smpi_helpers.h /work/main/src/kernels/dense.h \
 /usr/include/smpi/mpi.h /work/main/src/kernels/sparse.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/kernels/dense.h:
/usr/include/smpi/mpi.h:
/work/main/src/kernels/sparse.h:
