build-smpi-bench/obj/src/runtime/handles.o: \
 /work/main/src/runtime/handles.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/runtime/../kernels/dense.h /usr/include/smpi/mpi.h \
 /work/main/src/runtime/handles.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/runtime/../kernels/dense.h:
/usr/include/smpi/mpi.h:
/work/main/src/runtime/handles.h:
