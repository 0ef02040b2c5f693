build-smpi-bench/obj/src/coll/reduce/ordered_binomial.o: \
 /work/main/src/coll/reduce/ordered_binomial.c \
 /usr/include/smpi/smpi_helpers.h \
 /work/main/src/coll/reduce/../algorithm.h \
 /work/main/src/coll/reduce/../../sched/schedule.h \
 /work/main/src/coll/reduce/../common/binomial.h \
 /work/main/src/coll/reduce/../common/partial.h \
 /work/main/src/coll/reduce/../common/../algorithm.h
/usr/include/smpi/smpi_helpers.h:
/work/main/src/coll/reduce/../algorithm.h:
/work/main/src/coll/reduce/../../sched/schedule.h:
/work/main/src/coll/reduce/../common/binomial.h:
/work/main/src/coll/reduce/../common/partial.h:
/work/main/src/coll/reduce/../common/../algorithm.h:
