build-smpi-bench/obj/src/coll/common/exchange.o: \
 /work/main/src/coll/common/exchange.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/common/exchange.h \
 /work/main/src/coll/common/../algorithm.h \
 /work/main/src/coll/common/../../sched/schedule.h \
 /work/main/src/coll/common/../../patterns/ring.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/common/exchange.h:
/work/main/src/coll/common/../algorithm.h:
/work/main/src/coll/common/../../sched/schedule.h:
/work/main/src/coll/common/../../patterns/ring.h:
