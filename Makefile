# colibri build.
#   make              Open MPI (default mpicc)  -> build/
#   make MPI=mpich    MPICH                     -> build-mpich/
#   make MPI=asan     Open MPI, AddressSanitizer + UndefinedBehaviorSanitizer
#                     -> build-asan/ (library, MPI and drop-in tests only;
#                     tests/run.sh's "sanitizers" section runs them)
#   make sim          SimGrid SMPI (smpicc)     -> build-smpi/ (static library)
#   make MPICC=/path/to/mpicc   any MPI, by its compiler wrapper -> build-<name>/,
#                     <name> read from its mpi.h by scripts/mpi-name.sh (ompi5,
#                     mpich5, impi, abi, ...; BUILD= to choose another)
#   make MPI=abi      the MPI-5 standard ABI (MPICH 5's mpicc_abi from
#                     scripts/install-mpis.sh, or MPICC=/path/to/mpicc_abi)
#                     -> build-abi/, without the Fortran wrappers (MPI_Fint
#                     is not part of the C ABI)
#   make test         the whole test suite (tests/run.sh)
#   make install PREFIX=/usr/local [TUNING=file]   (TUNING: the site's default
#                     tuning file, installed as $(PREFIX)/etc/colibri/tuning)
#   make bench        the benchmark programs of bench/ only
#   make sparse-bench-smpi   build-smpi/bin/sparse-bench (SMPI), for bench/scripts/bench_sparse.sh
MPI ?= openmpi
# scripts/install-mpis.sh puts Open MPI 5, MPICH 5 and Intel MPI here.
MPI_CACHE ?= $(or $(COLIBRI_MPI_CACHE),.cache/mpis)

ifeq ($(MPI),abi)
  MPICC ?= $(MPI_CACHE)/mpich5/bin/mpicc_abi
  ifeq ($(wildcard $(firstword $(MPICC))),)
    ifeq ($(shell command -v $(firstword $(MPICC))),)
      $(error $(MPICC) not found: run scripts/install-mpis.sh, or make MPI=abi MPICC=/path/to/mpicc_abi)
    endif
  endif
endif

# An MPICC from the environment (cluster modules often export one) is not
# taken: plain `make` keeps building build/ with the default mpicc.
ifneq ($(filter command line file override,$(origin MPICC)),)
  # Any MPI by its compiler wrapper (MPI=openmpi or abi only; MPI=mpich,
  # asan and smpi keep their own compilers).
  ifneq ($(filter openmpi abi,$(MPI)),)
    # Intel MPI's PyPI wrappers carry no installation path: they need
    # I_MPI_ROOT (the folder above their bin/).
    ifeq ($(I_MPI_ROOT),)
      ifneq ($(wildcard $(dir $(shell command -v $(firstword $(MPICC))))impi_info),)
        export I_MPI_ROOT := $(abspath $(dir $(shell command -v $(firstword $(MPICC))))..)
      endif
    endif
    # (make 4.3's $(shell) does not see exported variables: passed by hand)
    MPI_NAME := $(shell I_MPI_ROOT='$(I_MPI_ROOT)' sh scripts/mpi-name.sh '$(MPICC)')
    ifeq ($(MPI_NAME),unknown)
      $(error $(MPICC) cannot compile a program that includes mpi.h)
    endif
    CC := $(MPICC)
    BUILD ?= build-$(MPI_NAME)
    override MPI := $(if $(filter abi,$(MPI_NAME)),abi,mpicc)
  endif
endif

ifeq ($(MPI),$(filter $(MPI),abi mpicc))
  # set above
else ifeq ($(MPI),mpich)
  CC := mpicc.mpich
  BUILD ?= build-mpich
else ifeq ($(MPI),smpi)
  CC := smpicc
  BUILD ?= build-smpi
  # Code that only a simulation needs (runtime/shm_charge.h) tests this.
  SIM_CFLAGS := -DCOLIBRI_SMPI
else ifeq ($(MPI),asan)
  CC := mpicc
  BUILD ?= build-asan
  # Any report is an error: UBSan stops at the first one as ASan does, so a
  # test with undefined behaviour exits non-zero instead of printing and
  # going on.
  SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  OPT ?= -O1 -g
else
  CC := mpicc
  BUILD ?= build
endif

PREFIX ?= /usr/local
OPT ?= -O3 -g
SAN ?=
# x86-64: thread-local data through TLS descriptors, not a __tls_get_addr
# call per access (the native memo of runtime/native.h is thread-local and
# read at every settled call); as safe when the library is dlopen'ed.  Not
# under SMPI: its simulated ranks then saw predefined datatypes as NULL at
# their first call (tests/smpi catalog and node_reductions failed).
TLS_DIALECT := $(if $(SIM_CFLAGS),,$(if $(filter x86_64,$(shell uname -m)),-mtls-dialect=gnu2))
CFLAGS := -std=c11 $(OPT) $(SAN) -Wall -Wextra -Wno-unused-parameter -fPIC $(TLS_DIALECT) -Iinclude -D_GNU_SOURCE $(SIM_CFLAGS) $(EXTRA_CFLAGS)

LIB_SRC := $(sort $(shell find src -name '*.c' -not -path 'src/tools/*'))
ifneq ($(filter smpi abi,$(MPI)),)
  # SMPI has no Fortran bindings to wrap; the standard ABI covers C only
  # (MPI_Fint and the handle conversions to Fortran are not part of it).
  LIB_SRC := $(filter-out src/interpose/fortran.c,$(LIB_SRC))
endif
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
DEPS := $(LIB_OBJ:.o=.d) $(BENCH_OBJ:.o=.d)

BENCH := $(BUILD)/bin/colibri-bench $(BUILD)/bin/kernel-bench $(BUILD)/bin/overlap-bench \
         $(BUILD)/bin/setup-bench $(BUILD)/bin/call-cost-bench $(BUILD)/bin/sparse-bench \
         $(BUILD)/bin/dropin-bench
TOOLS := $(BUILD)/bin/colibri-info $(BUILD)/bin/colibri-tune $(BENCH)
# The benchmark programs' shared core: options, timed loops, CSV (bench/lib/).
BENCH_OBJ := $(BUILD)/obj/bench/lib/bench_common.o
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/*.c))
MPI_TESTS := $(patsubst tests/mpi/%.c,$(BUILD)/tests/%,$(wildcard tests/mpi/*.c))
DROPIN_TESTS := $(patsubst tests/dropin/%.c,$(BUILD)/tests/dropin_%,$(wildcard tests/dropin/*.c))

ifeq ($(MPI),smpi)
  LIBRARY := $(BUILD)/lib/libcolibri.a
  # SMPI's MPI_* are weak: pull every object in, or none of colibri's win.
  LINK_COLIBRI := -Wl,--whole-archive $(BUILD)/lib/libcolibri.a -Wl,--no-whole-archive
else
  LIBRARY := $(BUILD)/lib/libcolibri.so $(BUILD)/lib/libcolibri.a
  LINK_COLIBRI := -L$(BUILD)/lib -Wl,-rpath,'$$ORIGIN/../lib' -lcolibri
endif
LDLIBS := -lm

.PHONY: all sim mpich test check-unit install clean bench sparse-bench-smpi
# Unit tests use no MPI: tests/run.sh runs them from the default build only.
# The SMPI suite builds its own programs (tests/smpi/*.sh).
ifeq ($(MPI),smpi)
  TESTS :=
else ifneq ($(filter mpich mpicc abi,$(MPI)),)
  TESTS := $(MPI_TESTS) $(DROPIN_TESTS)
else ifeq ($(MPI),asan)
  TESTS := $(MPI_TESTS) $(DROPIN_TESTS) $(BUILD)/tests/test_large_counts
  TOOLS :=
else
  TESTS := $(UNIT_TESTS) $(MPI_TESTS) $(DROPIN_TESTS)
endif
all: $(LIBRARY) $(TOOLS) $(TESTS)

sim:
	$(MAKE) MPI=smpi

mpich:
	$(MAKE) MPI=mpich

bench: $(BENCH)

# sparse-bench as an SMPI program (SMPI's MPI_* are weak: the whole archive
# is linked in), for bench/scripts/bench_sparse.sh and tests/smpi/sparse_bar.sh.
sparse-bench-smpi:
	$(MAKE) MPI=smpi build-smpi/bin/sparse-bench

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/lib/libcolibri.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/lib/libcolibri.so: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -shared -o $@ $^ $(LDLIBS) -ldl

$(BUILD)/bin/colibri-info: src/tools/colibri_info.c $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LINK_COLIBRI) $(LDLIBS)

# colibri-tune times with the benchmarks' shared core (bench/lib) and reads
# the catalog and kernels for its candidates and its calibration.
$(BUILD)/bin/colibri-tune: src/tools/colibri_tune.c bench/lib/bench_common.h $(BENCH_OBJ) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -Ibench/lib $< $(BENCH_OBJ) -o $@ $(LINK_COLIBRI) $(LDLIBS)

# bench/<name>_bench.c -> $(BUILD)/bin/<name>-bench, each linked with the
# shared core.
BENCH_DEPS := bench/lib/bench_common.h $(BENCH_OBJ)
BENCH_LINK = $(CC) $(CFLAGS) -Ibench/lib $< $(BENCH_OBJ) -o $@

# No MPI: can a process read a peer's memory (process_vm_readv), how fast
# (docs/node-aware.md, Limits).
$(BUILD)/bin/cma-probe: bench/cma_probe.c
	@mkdir -p $(dir $@)
	cc -std=c11 -O2 -Wall -Wextra $< -o $@

$(BUILD)/bin/kernel-bench: bench/kernel_bench.c $(BENCH_DEPS) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(BENCH_LINK) -Isrc $(LINK_COLIBRI) $(LDLIBS)

$(BUILD)/bin/setup-bench: bench/setup_bench.c $(BENCH_DEPS) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(BENCH_LINK) $(LINK_COLIBRI) $(LDLIBS)

$(BUILD)/bin/colibri-bench: bench/colibri_bench.c $(BENCH_DEPS) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(BENCH_LINK) $(LINK_COLIBRI) $(LDLIBS)

$(BUILD)/bin/overlap-bench: bench/overlap_bench.c $(BENCH_DEPS) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(BENCH_LINK) $(LINK_COLIBRI) $(LDLIBS)

$(BUILD)/bin/sparse-bench: bench/sparse_bench.c $(BENCH_DEPS) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(BENCH_LINK) $(LINK_COLIBRI) $(LDLIBS)

# Link no colibri: measured plain, or with colibri preloaded.
$(BUILD)/bin/call-cost-bench: bench/call_cost_bench.c $(BENCH_DEPS)
	@mkdir -p $(dir $@)
	$(BENCH_LINK) $(LDLIBS)

$(BUILD)/bin/dropin-bench: bench/dropin_bench.c $(BENCH_DEPS)
	@mkdir -p $(dir $@)
	$(BENCH_LINK) $(LDLIBS)

# Unit and MPI tests link colibri; drop-in tests deliberately do not (they get
# it only through LD_PRELOAD).
$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h tests/lib/*.h) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc $< -o $@ $(LINK_COLIBRI) $(LDLIBS)

$(BUILD)/tests/%: tests/mpi/%.c tests/mpi/harness.h $(wildcard tests/lib/*.h) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc $< -o $@ $(LINK_COLIBRI) $(LDLIBS)

# Built without the sanitizers (a user's program): the sanitizer runs preload
# libasan and build-asan's libcolibri.so into them.
$(BUILD)/tests/dropin_%: tests/dropin/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(SAN),$(CFLAGS)) $< -o $@ $(LDLIBS)

test:
	bash tests/run.sh

install: $(LIBRARY) $(TOOLS)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/lib/cmake/colibri \
	  $(DESTDIR)$(PREFIX)/etc/colibri
	install -m 644 include/colibri.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(BUILD)/lib/libcolibri.* $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|g' packaging/colibri.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/colibri.pc
	$(if $(TUNING),install -m 644 $(TUNING) $(DESTDIR)$(PREFIX)/etc/colibri/tuning)
	sed -e 's|@PREFIX@|$(PREFIX)|g' packaging/colibriConfig.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/colibri/colibriConfig.cmake

clean:
	rm -rf build build-mpich build-smpi build-asan build-abi build-ompi* build-mpich[0-9]* build-impi build-site

-include $(DEPS)
