/*
 * The tuning file (COLIBRI_TUNING, or the site default): its text format,
 * parsed and written here, with no knowledge of the catalog (the caller
 * checks collective and algorithm names through `known`).  colibri-tune
 * writes it, the selector (select.c) reads it, and the unit tests round-trip
 * and fuzz it.  Format, one item per line, '#' starts a comment:
 *
 *   mpi <the MPI library's version line, MPI_Get_library_version's first>
 *   shape p=<p> ppn=<ranks per node> nodes=<n>      (what it was measured on)
 *   model key=value ...                              (calibrated cost model)
 *   <coll> <min_bytes> <max_bytes> <min_p> <max_p> <algorithm|native> [key=value ...]
 *
 * Rule keys: ppn=a[-b] and nodes=a[-b] (ranks per node, nodes: the rule
 * applies only when the communicator's node layout is known and inside
 * them), radix=k, segment=bytes, us=<measured time>, native_us=<native's>.
 * <coll> is a collective name; "i" before it (iallreduce) makes a rule for
 * nonblocking and persistent calls only.  Ranges are inclusive.  Two rules
 * of one collective whose byte, p, ppn and node ranges all overlap are an
 * error: the later is ignored.  Every problem is one line on `diag` naming
 * the file and line; the line is ignored and the rest kept.
 */
#ifndef COLIBRI_TUNING_H
#define COLIBRI_TUNING_H

#include <stdbool.h>
#include <stdio.h>

#include "colibri.h"

#define TUNING_MAX_RULES 1024

struct tuning_rule {
    int line;                  /* in the file, for messages */
    colibri_coll coll;
    bool nonblocking;          /* an "i" rule */
    long long lo_bytes, hi_bytes;
    int lo_p, hi_p;
    int lo_ppn, hi_ppn;        /* 0 and 0: any */
    int lo_nodes, hi_nodes;    /* 0 and 0: any */
    char alg[48];              /* "native" or a catalog name */
    int radix;                 /* 0: the model's choice */
    long long segment;         /* bytes, 0: the algorithm's default */
    double us, native_us;      /* measured microseconds, 0: not given */
};

/* Cost-model parameters measured by colibri-tune (seconds, seconds per
 * byte, bytes); 0 where not measured (inter-node figures on one node). */
struct tuning_model {
    bool set;
    double alpha_node, beta_node; /* point-to-point between ranks of a node */
    double alpha, beta;           /* ... between nodes */
    double o;                     /* processor overhead per message */
    double gamma;                 /* local reduction, per byte */
    double shm_beta;              /* copy through shared memory, per byte */
    long long eager;              /* largest message sent eagerly */
};

struct tuning_file {
    char mpi[256];   /* "" when the file does not say */
    int mpi_line;
    int shape_p, shape_ppn, shape_nodes; /* 0 when not given */
    struct tuning_model model;
    int n_rules, n_ignored;
    struct tuning_rule rules[TUNING_MAX_RULES];
};

/* Whether `alg` names an algorithm of `coll` ("native" is always known);
 * on false, `why` says what is wrong. */
typedef bool (*tuning_known_fn)(colibri_coll coll, const char *alg, char *why, size_t len);

/* Parses `text` (of file `path`, for messages) into *t.  Problems go to
 * `diag` ("colibri: <path>:<line>: ..."), NULL for none; never fails. */
void tuning_parse(const char *text, const char *path, tuning_known_fn known, FILE *diag,
                  struct tuning_file *t);
/* Reads and parses file `path`; false (and a message) if it cannot be read. */
bool tuning_load(const char *path, tuning_known_fn known, FILE *diag, struct tuning_file *t);
/* Writes *t in the format above (rules in order); tuning_parse reads it back
 * equal. */
void tuning_write(FILE *f, const struct tuning_file *t);

/* The first line of an MPI library's version string
 * (MPI_Get_library_version), blanks collapsed to one space and trimmed:
 * what the `mpi` line records and is compared with. */
void tuning_mpi_id(const char *version, char *out, size_t len);

/* The collective name of a rule ("allreduce", "ialltoall"), for messages. */
const char *tuning_coll_name(colibri_coll coll, bool nonblocking, char *buf, size_t len);

#endif
