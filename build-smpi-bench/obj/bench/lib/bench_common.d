build-smpi-bench/obj/bench/lib/bench_common.o: \
 /work/main/bench/lib/bench_common.c /usr/include/smpi/smpi_helpers.h \
 /work/main/bench/lib/bench_common.h /usr/include/smpi/mpi.h
/usr/include/smpi/smpi_helpers.h:
/work/main/bench/lib/bench_common.h:
/usr/include/smpi/mpi.h:
