# Sourced by tests/run.sh's sanitizer section and tests/sanitizers/*.sh (not a
# test itself).  The environment of every run under build-asan/ (make
# MPI=asan: AddressSanitizer + UndefinedBehaviorSanitizer):
#  - detect_leaks=0: Open MPI leaks at MPI_Finalize by design and LeakSanitizer
#    would report it; colibri's own leaks are checked by tests/mpi/test_leaks.c
#    through colibri_setup_stats and the process's memory instead;
#  - any report stops the process with exit status 1 (ASan's default,
#    -fno-sanitize-recover=undefined plus halt_on_error for UBSan), and
#    mpirun passes that status on;
#  - verify_asan_link_order=0: a preloaded run puts libasan first in
#    LD_PRELOAD, but mpirun's own helpers (orted) may load it second.
export ASAN_OPTIONS=${ASAN_OPTIONS_OVERRIDE:-detect_leaks=0:verify_asan_link_order=0:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# What LD_PRELOAD needs for a program built without the sanitizers.
ASAN_RUNTIME=$(gcc -print-file-name=libasan.so)

# sanitizer_reports FILE...: true when one of the files holds a sanitizer's
# report (belt and braces: the exit status already says so).
sanitizer_reports() {
  grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error: |SUMMARY: UndefinedBehaviorSanitizer' "$@" 2>/dev/null
}
