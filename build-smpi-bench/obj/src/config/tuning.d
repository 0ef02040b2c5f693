build-smpi-bench/obj/src/config/tuning.o: /work/main/src/config/tuning.c \
 /usr/include/smpi/smpi_helpers.h /work/main/src/config/tuning.h \
 include/colibri.h /usr/include/smpi/mpi.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/config/tuning.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
