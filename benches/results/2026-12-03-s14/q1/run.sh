#!/bin/sh
# Session 14 (2026-12-03) run q1 (probe): the register tile by fma() (lab set_gemm_fma) on dgemm,
# sgemm and the batched products.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
timeout 150 $B/example-kernel_lab --dgemm 4096,8192 --variants "auto;fma=1;checks=2;fma=1,checks=2" --reps 11 > $O/dgemm.log 2>&1
t dgemm; grep -E "^LAB" $O/dgemm.log
timeout 150 $B/example-kernel_lab --shapes 4096x4096x4096,2048x2048x2048,1024x1024x1024,1000x1000x1000,64x8192x8192 --layouts NN-C,TT-F --variants "auto;fma=1" --reps 11 > $O/sgemm.log 2>&1
t sgemm; grep -E "^LAB" $O/sgemm.log
for f in off on; do
  timeout 100 $B/example-level3_report --sections batched,dbatched --fma $f > $O/batched-$f.log 2>&1
  t batched-$f; grep -E "^ROW|TFLOP" $O/batched-$f.log | head -20
done
