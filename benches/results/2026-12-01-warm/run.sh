#!/bin/sh
# Warm-up check (2026-12-01): level3 and bandwidth reports with 0.3 s of steady load before each
# timed case, then the cuBLAS/copy references, one device command:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/warm.sh $R
cd /tmp/wgblas-bundle
R=$1
O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu,power.draw --format=csv -lms 100 > $O/clocks.csv 2>&1 &
SMI=$!
( timeout 200 ./bin/example-level3_report --reps 11 --check 2048
  timeout 200 ./bin/example-bandwidth_report --reps 11 --trsv 4096,8192 --sets l1,l2 ) > $O/reports.log 2>&1
kill $SMI
grep -c "^ROW" $O/reports.log; grep -E "Error|panicked" $O/reports.log | head
REF_ONLY=gemm,level3,level1,level2 PYTHONUNBUFFERED=1 timeout 180 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep -c "^REF" $O/ref.log; tail -1 $O/ref.log
