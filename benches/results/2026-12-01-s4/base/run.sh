#!/bin/sh
# Baseline of issue 10/12 figures at main bf72fbf (session 4 start), one device command.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > $O/meta.log 2>&1
( timeout 150 ./bin/example-bandwidth_report --sets l1,l2,f64 --reps 11
  timeout 40 ./bin/example-chain_report --reps 11
  timeout 30 ./bin/example-p10_record
  timeout 60 ./bin/example-host_report --reps 11 --gemm 64,512,2048 --dot 1024
  timeout 40 ./bin/example-cg data/1138_bus.mtx ) > $O/reports.log 2>&1
grep -c "^ROW" $O/reports.log; grep -E "Error|panicked" $O/reports.log | head
REF_ONLY=level1,level2,f64 PYTHONUNBUFFERED=1 timeout 150 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep -c "^REF" $O/ref.log; tail -2 $O/ref.log
