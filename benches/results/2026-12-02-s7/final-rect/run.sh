#!/bin/sh
# Session 7, final-rect: the sgemm rows that read low in final-l3 (2048 NT-F 13.2, 8192x64x8192
# 9.8 TFLOP/s, while kernel_lab read 28.4 for the latter at the same commit), again, with cuBLAS:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final4.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
timeout 100 ./bin/example-level3_report --sections sgemm,rect --n 2048 --reps 11 --check 0 > $O/l3.log 2>&1
REF_ONLY=gemm SIZES=2048 PYTHONUNBUFFERED=1 timeout 60 python3 $R/.gpu/reference.py > $O/l3-ref.log 2>&1
grep -E "^# sgemm" $O/l3.log
