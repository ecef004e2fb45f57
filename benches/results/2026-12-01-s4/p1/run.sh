#!/bin/sh
# Probe p1 of session 4: kern12 fd8b38c (bandwidth_report lab variants) and perf12 dfef1c8
# (record probe, chains, host calls, CG), one device command.
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
( timeout 150 ./bin/example-bandwidth_report --sets l1,lab,lab-l2 --l1 20 --gemv 4096,8192 --skinny 23 --sq 16384 --trsv 8192 --reps 11 ) > $O/kern12.log 2>&1
grep -c "^ROW\|^LAB" $O/kern12.log; grep -E "Error|panicked" $O/kern12.log | head -5
( timeout 60 ./bin/example-record_probe --reps 10
  timeout 60 ./bin/example-chain_report --reps 11
  timeout 60 ./bin/example-host_report --reps 11 --transfer 1048576 --gemm 64 --split 64 --dot 1024
  timeout 60 ./bin/example-cg data/1138_bus.mtx ) > $O/perf12.log 2>&1
grep -E "^ROW|record|wall" $O/perf12.log | head -20; grep -E "Error|panicked" $O/perf12.log | head -5
