#!/bin/sh
# A/B of the bind-group cache on host calls: A = ed8270a (cached groups for every call),
# B = no cached groups for calls that read back. Same command, alternating.
cd /tmp/wgblas-bundle
for r in 1 2; do for v in A B; do echo "== cg $v round $r"; timeout 40 ./bin/cg$v data/1138_bus.mtx 2>&1 | grep -E "wgblas|resident,"; done; done
for v in A B; do echo "== host_report $v"; timeout 60 ./bin/hr$v --reps 11 --transfer 1048576 --gemm 64,512 --dot 1024 2>&1 | grep -E "^ROW|phases"; done
