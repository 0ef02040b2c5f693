/* Pins of user-defined operations and derived datatypes (handles.h). */
#include <pthread.h>
#include <stdlib.h>

#include "../kernels/dense.h"
#include "handles.h"
#include "state/setup.h"

/* A few handles are pinned at any time (one or two per running
 * operation): a small array, searched linearly. */
struct pin {
    bool is_type;
    union {
        MPI_Op op;
        MPI_Datatype type;
    } h;
    int pins;
    bool freed; /* the program freed it: free it with the last pin */
};

/* Taken only where two threads can be inside colibri at once
 * (setup_threads). */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static struct pin *pins;
static int n_pins, cap_pins;

static void lock(void)
{
    if (setup_threads())
        pthread_mutex_lock(&mutex);
}

static void unlock(void)
{
    if (setup_threads())
        pthread_mutex_unlock(&mutex);
}

static bool same(const struct pin *p, bool is_type, MPI_Op op, MPI_Datatype type)
{
    return p->is_type == is_type && (is_type ? p->h.type == type : p->h.op == op);
}

static struct pin *find(bool is_type, MPI_Op op, MPI_Datatype type)
{
    for (int i = 0; i < n_pins; i++)
        if (same(&pins[i], is_type, op, type))
            return &pins[i];
    return NULL;
}

static void pin(bool is_type, MPI_Op op, MPI_Datatype type)
{
    lock();
    struct pin *p = find(is_type, op, type);
    if (!p && n_pins == cap_pins) {
        int cap = cap_pins ? 2 * cap_pins : 16;
        struct pin *a = realloc(pins, (size_t)cap * sizeof *a);
        if (a)
            pins = a, cap_pins = cap;
    }
    if (!p && n_pins < cap_pins) {
        p = &pins[__atomic_add_fetch(&n_pins, 1, __ATOMIC_RELAXED) - 1];
        *p = (struct pin){.is_type = is_type};
        if (is_type)
            p->h.type = type;
        else
            p->h.op = op;
    }
    /* Out of memory: unpinned, as before pins existed. */
    if (p)
        p->pins++;
    unlock();
}

static void unpin(bool is_type, MPI_Op op, MPI_Datatype type)
{
    /* nothing pinned (an operation on predefined handles): nothing to
     * find; a pin of this handle, taken before, would be counted */
    if (!__atomic_load_n(&n_pins, __ATOMIC_RELAXED))
        return;
    lock();
    struct pin *p = find(is_type, op, type);
    bool free_now = false;
    if (p && --p->pins == 0) {
        free_now = p->freed;
        *p = pins[__atomic_sub_fetch(&n_pins, 1, __ATOMIC_RELAXED)];
    }
    unlock();
    if (free_now)
        handle_free_now(is_type ? NULL : &op, is_type ? &type : NULL);
}

int handle_free_now(MPI_Op *op, MPI_Datatype *type)
{
    kernel_forget_handle(op ? *op : MPI_OP_NULL, type ? *type : MPI_DATATYPE_NULL);
    return op ? PMPI_Op_free(op) : PMPI_Type_free(type);
}

static bool defer(bool is_type, MPI_Op op, MPI_Datatype type)
{
    lock();
    struct pin *p = find(is_type, op, type);
    if (p)
        p->freed = true;
    unlock();
    return p != NULL;
}

static bool derived(MPI_Datatype type)
{
    int ni, na, nd, combiner = MPI_COMBINER_NAMED;
    if (type == MPI_DATATYPE_NULL)
        return false;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    return combiner != MPI_COMBINER_NAMED;
}

void handle_pin_op(MPI_Op op)
{
    if (op != MPI_OP_NULL && !kernel_op_is_predefined(op) && op != MPI_REPLACE &&
        op != MPI_NO_OP)
        pin(false, op, MPI_DATATYPE_NULL);
}

/* An unpin asks MPI nothing about the handle (the program may have freed
 * it, and then only the table knows it): a handle that was never pinned is
 * not in the table. */
void handle_unpin_op(MPI_Op op) { unpin(false, op, MPI_DATATYPE_NULL); }

void handle_pin_type(MPI_Datatype type)
{
    if (derived(type))
        pin(true, MPI_OP_NULL, type);
}

void handle_unpin_type(MPI_Datatype type) { unpin(true, MPI_OP_NULL, type); }

bool handle_defer_op_free(MPI_Op *op)
{
    if (!op || !defer(false, *op, MPI_DATATYPE_NULL))
        return false;
    *op = MPI_OP_NULL;
    return true;
}

bool handle_defer_type_free(MPI_Datatype *type)
{
    if (!type || !defer(true, MPI_OP_NULL, *type))
        return false;
    *type = MPI_DATATYPE_NULL;
    return true;
}
