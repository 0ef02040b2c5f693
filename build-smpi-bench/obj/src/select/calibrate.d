build-smpi-bench/obj/src/select/calibrate.o: \
 /work/main/src/select/calibrate.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/select/calibrate.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/select/calibrate.h:
