build-smpi-bench/obj/src/coll/common/partial.o: \
 /work/main/src/coll/common/partial.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/common/partial.h \
 /work/main/src/coll/common/../algorithm.h \
 /work/main/src/coll/common/../../sched/schedule.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/common/partial.h:
/work/main/src/coll/common/../algorithm.h:
/work/main/src/coll/common/../../sched/schedule.h:
