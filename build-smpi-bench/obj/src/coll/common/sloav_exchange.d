build-smpi-bench/obj/src/coll/common/sloav_exchange.o: \
 /work/main/src/coll/common/sloav_exchange.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/common/sloav_exchange.h \
 /work/main/src/coll/common/../../sched/schedule.h \
 /work/main/src/coll/common/../../patterns/radix.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/common/sloav_exchange.h:
/work/main/src/coll/common/../../sched/schedule.h:
/work/main/src/coll/common/../../patterns/radix.h:
