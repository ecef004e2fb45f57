#!/bin/sh
# Session 16 run q1: the whole suite on the H200 at 9397b88 (f64 rank updates on the WIDE
# rank-update kernel, strsm forming alpha·B first); dger/dsyr/dsyr2 speed on it; ssyr/ssyr2
# with main_rows on the triangle's tiles (--rank-tri 1); sgemm n = 1024 tile and split-k
# variants (kernel_lab); Level 3 at 4096; cuBLAS references.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta.log; }
( timeout 230 $B/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
  timeout 50 $B/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
  timeout 30 $B/test-lib-wgblas --test-threads 8; timeout 20 $B/test-test-shaders ) > $O/tests.log 2>&1
t tests; grep -E "test result|FAILED|panicked" $O/tests.log | head -20
timeout 60 $B/example-kernel_lab --shapes 1024x1024x1024 --layouts TT-C,NN-C --reps 11 --variants "auto;split=1;split=2;split=8;bm=128,bn=128,bk=32,nbuf=1;bm=128,bn=128,bk=16,nbuf=2;bm=128,bn=64,bk=16,nbuf=1,split=2;bm=128,bn=64,bk=16,nbuf=1;bm=64,bn=64,bk=16,nbuf=1" > $O/lab.log 2>&1
t lab; grep -E "^LAB" $O/lab.log
timeout 200 $B/example-bandwidth_report --sets l2,f64 --gemv 4096 --skinny 23 --gemv-groups 512,2048,4096 --gemv-col-lanes 4,8,16 --sq 16384 --trsv "" --sq64 8192 --rank-tri 1 --reps 11 > $O/l2.log 2>&1
t l2; grep -E "^ROW|^LAB|^REF" $O/l2.log
timeout 120 $B/example-level3_report --sections sgemm,level3 --n 1024,4096 --layouts NN-C,TT-C --level3-n 4096 --trsm-inverse off --tri-order heavy > $O/l3.log 2>&1
t l3; grep -E "^ROW|TFLOP" $O/l3.log | head -30
REF_ONLY=gemm,level2,level3,f64 SIZES=1024,4096 PYTHONUNBUFFERED=1 timeout 150 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
t ref; grep -E "^REF|^ROW" $O/ref.log | head -40
