#!/usr/bin/env bash
# node_rails' simulated time (docs/node-aware.md, "Short vectors across
# nodes"): 256 ranks as 16 nodes x 16 (platforms/cluster-256x16.xml, 1 us
# node to node, 0.5 us per message sent or received), an 8-byte allreduce.
# node_rails merges the 16 nodes in one round, 15 ranks of each node
# exchanging at once; node_leader's leaders take lg 16 = 4 rounds, flat
# k-nomial and recursive doubling more.  SMPI's clock is deterministic with
# computation not timed, so: node_rails must take at most half of each of
# the others, no less than one message between nodes can (1 us of latency
# and 1 us of overhead), and auto must choose it.
source "$(dirname "$0")/lib.bash"
smpi_build check_scale
out=$(PLATFORM=platforms/cluster-256x16.xml HOSTFILE=platforms/hostfile-16x16.txt \
  SMPI_CFG="--cfg=smpi/os:0:0.5e-6 --cfg=smpi/or:0:0.5e-6 --cfg=smpi/ois:0:0.5e-6" \
  smpi_run 256 build-smpi/tests/smpi_check_scale 1 node_rails node_leader knomial \
  recursive_doubling auto) || { echo "$out"; exit 1; }
echo "$out"
awk '$1 == "time" { t[$2] = $4; ran[$2] = $3 }
  END {
    bad = 0
    if (!("node_rails" in t)) { print "FAIL: no node_rails time"; exit 1 }
    if (t["node_rails"] < 2.0) { print "FAIL: node_rails " t["node_rails"] " us, below one message between nodes (2 us)"; bad = 1 }
    n = split("node_leader knomial recursive_doubling", others, " ")
    for (i = 1; i <= n; i++)
      if (!(others[i] in t) || !(t["node_rails"] <= 0.5 * t[others[i]])) {
        print "FAIL: node_rails " t["node_rails"] " us, " others[i] " " t[others[i]] " us: not at most half"; bad = 1
      }
    if (ran["auto"] != "node_rails") { print "FAIL: auto ran " ran["auto"]; bad = 1 }
    if (!bad) printf "ok: 8 B at 16 x 16: node_rails %.2f us, node_leader %.2f, knomial %.2f, recursive doubling %.2f, auto %s\n", t["node_rails"], t["node_leader"], t["knomial"], t["recursive_doubling"], ran["auto"]
    exit bad }' <<<"$out"
