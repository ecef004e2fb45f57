#!/bin/sh
# Final H200 run of session 5 (2026-12-01), one device command:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R
# Level 2 and f64 with kern12's lab variants (LAB lines, CHECK lines against the default), the
# host report (default, then streaming off for the A/B, in a log of its own), quickstart twice,
# then the reference rows (cuBLAS, copy, PyTorch pinned) in the same command.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
( timeout 260 ./bin/example-bandwidth_report --sets x-l2,f64 --gemv 4096,8192,16384 --skinny 23 --sq 16384 --trsv 8192 --sq64 8192 --reps 11
  timeout 90 ./bin/example-host_report --reps 11
  for i in 1 2; do s=$(date +%s%N); timeout 30 ./bin/example-quickstart; echo "quickstart process wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; done
) > $O/reports.log 2>&1
WGBLAS_STREAM_MIB=0 timeout 60 ./bin/example-host_report --reps 11 --gemm 2048,4096 --dot 1024 --split 4096 > $O/host_nostream.log 2>&1
grep -c "^ROW" $O/reports.log; grep -E "Error|panicked|^CHECK" $O/reports.log | head -40
REF_ONLY=level2,f64,host PYTHONUNBUFFERED=1 timeout 200 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep -c "^REF" $O/ref.log; tail -2 $O/ref.log
grep -E "sgemm [0-9x]+ host:|^# (upload|readback)" $O/reports.log $O/host_nostream.log
