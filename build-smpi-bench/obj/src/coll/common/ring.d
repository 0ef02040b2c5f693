build-smpi-bench/obj/src/coll/common/ring.o: \
 /work/main/src/coll/common/ring.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/common/ring.h /work/main/src/coll/common/partial.h \
 /work/main/src/coll/common/../algorithm.h \
 /work/main/src/coll/common/../../sched/schedule.h \
 /work/main/src/coll/common/../../patterns/ring.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/common/ring.h:
/work/main/src/coll/common/partial.h:
/work/main/src/coll/common/../algorithm.h:
/work/main/src/coll/common/../../sched/schedule.h:
/work/main/src/coll/common/../../patterns/ring.h:
