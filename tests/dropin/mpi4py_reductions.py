"""A plain mpi4py program that knows nothing of colibri; the drop-in scripts
preload libcolibri.so under python3.  Buffer reductions on numpy arrays
(Allreduce, also in place, Reduce at the last rank, Reduce_scatter_block,
Reduce_scatter) go through MPI_Allreduce and friends, Alltoall and Alltoallv
(uneven blocks, in place) through MPI_Alltoall(v); comm.allreduce on
Python objects is checked too (mpi4py implements it with point-to-point, so
it adds no calls).  Results are checked against a serial computation.  Rank 0
prints "calls per rank: ..."; a wrong result makes the exit status nonzero.
"""
import sys

import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
n = 1000
calls = {"allreduce": 0, "reduce": 0, "reduce_scatter": 0, "reduce_scatter_block": 0,
         "alltoall": 0, "alltoallv": 0}
errors = []


def inputs(r, count, dtype):
    return ((np.arange(count) * 17 + r * 131) % 2001 - 1000).astype(dtype)


def everyone(count, dtype):
    return [inputs(r, count, dtype) for r in range(size)]


def check(what, coll, ok):
    calls[coll] += 1
    if not ok:
        errors.append(what)


for dtype in (np.int32, np.float64, np.int64):
    out = np.empty(n, dtype)
    comm.Allreduce(inputs(rank, n, dtype), out, op=MPI.SUM)
    check(f"Allreduce {dtype.__name__} sum", "allreduce",
          np.array_equal(out, sum(everyone(n, dtype))))

    buf = inputs(rank, n, dtype)
    comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.MAX)
    check(f"Allreduce in place {dtype.__name__} max", "allreduce",
          np.array_equal(buf, np.maximum.reduce(everyone(n, dtype))))

root = size - 1
out = np.empty(n, np.float64)
comm.Reduce(inputs(rank, n, np.float64), out, op=MPI.SUM, root=root)
check("Reduce", "reduce", rank != root or np.array_equal(out, sum(everyone(n, np.float64))))

out = np.empty(n, np.int32)
comm.Reduce_scatter_block(inputs(rank, n * size, np.int32), out, op=MPI.SUM)
check("Reduce_scatter_block", "reduce_scatter_block",
      np.array_equal(out, sum(everyone(n * size, np.int32))[rank * n:(rank + 1) * n]))

counts = [(r % 3) * 100 + 1 for r in range(size)]
displ = sum(counts[:rank])
out = np.empty(counts[rank], np.int32)
comm.Reduce_scatter(inputs(rank, sum(counts), np.int32), out, recvcounts=counts, op=MPI.SUM)
check("Reduce_scatter", "reduce_scatter",
      np.array_equal(out, sum(everyone(sum(counts), np.int32))[displ:displ + counts[rank]]))

def block(src, dst, count):
    return np.arange(count, dtype=np.int64) + 1000 * src + 10 * dst


out = np.empty(5 * size, np.int64)
comm.Alltoall(np.concatenate([block(rank, d, 5) for d in range(size)]), out)
check("Alltoall", "alltoall",
      np.array_equal(out, np.concatenate([block(s, rank, 5) for s in range(size)])))


def vcount(src, dst):
    return (src + 2 * dst) % 4 * 3


scounts = [vcount(rank, d) for d in range(size)]
rcounts = [vcount(s, rank) for s in range(size)]
out = np.empty(sum(rcounts), np.int64)
comm.Alltoallv([np.concatenate([block(rank, d, scounts[d]) for d in range(size)]), scounts],
               [out, rcounts])
check("Alltoallv", "alltoallv",
      np.array_equal(out, np.concatenate([block(s, rank, rcounts[s]) for s in range(size)])))

buf = np.concatenate([block(rank, d, 3) for d in range(size)])
comm.Alltoall(MPI.IN_PLACE, buf)
check("Alltoall in place", "alltoall",
      np.array_equal(buf, np.concatenate([block(s, rank, 3) for s in range(size)])))

if comm.allreduce({"rank": rank}, op=lambda a, b: {"rank": a["rank"] + b["rank"]}) != {
        "rank": size * (size - 1) // 2}:
    errors.append("allreduce on Python objects")

if rank == 0:
    print("calls per rank: " + " ".join(f"{k}={v}" for k, v in calls.items()), flush=True)
for e in errors:
    print(f"rank {rank}: {e} wrong", file=sys.stderr)
sys.exit(1 if errors else 0)
