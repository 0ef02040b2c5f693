build-bench/obj/src/sched/schedule.o: src/sched/schedule.c \
 src/sched/schedule.h
src/sched/schedule.h:
