build-smpi-bench/obj/src/runtime/validate.o: \
 /work/main/src/runtime/validate.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/validate.h /usr/include/smpi/mpi.h \
 include/colibri.h /work/main/src/runtime/../kernels/dense.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/validate.h:
/usr/include/smpi/mpi.h:
include/colibri.h:
/work/main/src/runtime/../kernels/dense.h:
