build-smpi-bench/obj/src/sched/schedule.o: \
 /work/main/src/sched/schedule.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/sched/schedule.h:
