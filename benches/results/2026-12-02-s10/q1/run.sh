#!/bin/sh
# Session 10 (2026-12-02), q1: lab variants side by side, with their references.
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q1.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin; L3=$B/example-level3_report
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
timeout 60 $L3 --sections trmm --level3-n 4096 --tri-order heavy,grid --check 1024 --reps 11 > $O/trmm.log 2>&1; t trmm
timeout 60 $L3 --sections rect --rect 32x4096x32,64x4096x64,128x4096x128,256x4096x256,512x4096x512,1024x4096x1024,2048x4096x2048,32x1024x32,64x1024x64,128x1024x128,256x1024x256,512x1024x512 --check 0 --reps 11 > $O/steps.log 2>&1; t steps
timeout 90 $B/example-kernel_lab --dgemm 4096 --variants "auto;checks=2;bm=128,bn=128,bk=8,nbuf=2;bm=128,bn=128,bk=8,nbuf=1;bm=128,bn=64,bk=16,nbuf=1;bm=64,bn=128,bk=16,nbuf=1;bm=128,bn=64,bk=8,nbuf=2;bm=128,bn=128,bk=8,nbuf=2,checks=2" --reps 11 > $O/dgemm.log 2>&1; t dgemm
timeout 60 $B/example-bandwidth_report --sets l2 --gemv '' --skinny '' --trsv '' --sq 16384 --trmv-groups 1024,2048,4096 --reps 11 > $O/trmv.log 2>&1; t trmv
REF_ONLY=level3,bmm PYTHONUNBUFFERED=1 timeout 100 python3 $R/.gpu/reference.py > $O/ref.log 2>&1; t ref
grep -hE "^ROW|^LAB" $O/*.log > $O/rows.txt; wc -l $O/rows.txt
grep -hE "FAIL|panicked|Error" $O/*.log | head -20
