build-smpi-bench/obj/src/kernels/sparse.o: \
 /work/main/src/kernels/sparse.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/kernels/sparse.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/kernels/sparse.h:
