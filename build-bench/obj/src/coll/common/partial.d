build-bench/obj/src/coll/common/partial.o: src/coll/common/partial.c \
 src/coll/common/partial.h src/coll/common/../algorithm.h \
 src/coll/common/../../sched/schedule.h
src/coll/common/partial.h:
src/coll/common/../algorithm.h:
src/coll/common/../../sched/schedule.h:
