#!/bin/sh
# Session 17 run q3: strmm at 4096, left and right, in the three orders of the trmm section
# (heavy first, the grid's order, heavy first without the transposed problem of a
# column-major C), beside the crate's sgemm NN-C; cuBLAS sgemm and strsm in the same command.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
timeout 120 $B/example-level3_report --sections sgemm,trmm --n 4096 --layouts NN-C --level3-n 4096 --tri-order heavy,grid,noswap --trsm-inverse off > $O/l3.log 2>&1
t l3; grep -E "^ROW" $O/l3.log | head -30
REF_ONLY=gemm,level3 SIZES=4096 PYTHONUNBUFFERED=1 timeout 100 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
t ref; grep -E "^REF" $O/ref.log | head -20
