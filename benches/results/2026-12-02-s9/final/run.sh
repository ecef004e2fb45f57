#!/bin/sh
# Session 9 (2026-12-02), one H200 command: the merged lab variants (rank updates `tile`, ssymv one
# pass, strsm leaf forms) and the tile engine's new defaults (guarded vec4 edges, split rules), with
# their references.   R=$PWD; bash .gpu/device.sh sh $R/.gpu/s9.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
timeout 70 $B/example-bandwidth_report --sets x-l2 --gemv '' --skinny '' --trsv '' --sq 16384 --reps 11 > $O/rank.log 2>&1
echo "rank at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log
timeout 70 $B/example-bandwidth_report --sets l2 --gemv '' --skinny '' --trsv '' --sq 16384 --symv-one-pass 4,8,16 --reps 11 > $O/symv.log 2>&1
echo "symv at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log
timeout 100 $B/example-level3_report --sections trsm --level3-n 1024,4096 --check 1024 --reps 11 --trsm-inverse off,engine,fused,refined > $O/trsm.log 2>&1
echo "trsm at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log
timeout 120 $B/example-level3_report --sections sgemm,rect --n 1024,4096 --layouts NN-C,TT-C,NN-F,TT-F --reps 11 --check 2048 > $O/l3.log 2>&1
echo "l3 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log
REF_ONLY=gemm,level3,level2 PYTHONUNBUFFERED=1 timeout 150 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
echo "ref at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log
grep -hE "^ROW|^LAB" $O/rank.log $O/symv.log $O/trsm.log $O/l3.log > $O/rows.txt; wc -l $O/rows.txt
grep -hE "FAIL|panicked|Error" $O/*.log | head -20
