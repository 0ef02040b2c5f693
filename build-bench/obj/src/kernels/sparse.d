build-bench/obj/src/kernels/sparse.o: src/kernels/sparse.c \
 src/kernels/sparse.h
src/kernels/sparse.h:
