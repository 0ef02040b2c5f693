build-bench/obj/src/coll/common/sloav_exchange.o: \
 src/coll/common/sloav_exchange.c src/coll/common/sloav_exchange.h \
 src/coll/common/../../sched/schedule.h \
 src/coll/common/../../patterns/radix.h
src/coll/common/sloav_exchange.h:
src/coll/common/../../sched/schedule.h:
src/coll/common/../../patterns/radix.h:
