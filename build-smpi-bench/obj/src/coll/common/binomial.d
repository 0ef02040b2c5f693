build-smpi-bench/obj/src/coll/common/binomial.o: \
 /work/main/src/coll/common/binomial.c /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/common/binomial.h \
 /work/main/src/coll/common/partial.h \
 /work/main/src/coll/common/../algorithm.h \
 /work/main/src/coll/common/../../sched/schedule.h \
 /work/main/src/coll/common/../../patterns/binomial.h \
 /work/main/src/coll/common/../../patterns/fold.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/common/binomial.h:
/work/main/src/coll/common/partial.h:
/work/main/src/coll/common/../algorithm.h:
/work/main/src/coll/common/../../sched/schedule.h:
/work/main/src/coll/common/../../patterns/binomial.h:
/work/main/src/coll/common/../../patterns/fold.h:
