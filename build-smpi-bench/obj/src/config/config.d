build-smpi-bench/obj/src/config/config.o: /work/main/src/config/config.c \
 /usr/include/smpi/smpi_helpers.h /work/main/src/config/config.h \
 include/colibri.h /usr/include/smpi/mpi.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/config/config.h:
include/colibri.h:
/usr/include/smpi/mpi.h:
