#!/bin/sh
# Session 7, final-l3: the Level 3 report at 6b11e8e (the chooser and strsm as they land) with
# its references in the same command:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final3.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
timeout 200 ./bin/example-level3_report --reps 11 --check 2048 > $O/l3.log 2>&1
grep -c "^ROW" $O/l3.log; grep -E "FAIL|Error|panicked" $O/l3.log | head
REF_ONLY=gemm,level3,bmm PYTHONUNBUFFERED=1 timeout 120 python3 $R/.gpu/reference.py > $O/l3-ref.log 2>&1
grep -c "^REF" $O/l3-ref.log; tail -1 $O/l3-ref.log
grep -E "^ROW,(sgemm,1024|sgemm,2048x2048x2048,NN-C|strsm|sgemm,1000)" $O/l3.log
