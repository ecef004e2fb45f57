#!/bin/sh
# Session 8 (2026-12-02), q1: the helpers' and the lead's lab variants side by side, two commands:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q1.sh $R a   (lab variants)
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q1.sh $R b   (the suite, strsm past one buffer, references)
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta-$2.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta-$2.log 2>&1
s0=$(date +%s)
if [ "$2" = a ]; then
# lead: the 8x8 engine after the wide tiles' removal, split-k filling the last wave, small batched k
L=$B/example-kernel_lab
( timeout 100 $L --shapes 4097x4097x4097,3000x5000x700,4096x4096x1024,2048x2048x2048,4096x4096x4096 --variants "auto;fill=1;split=2;split=3;split=4;split=6" --reps 11
  timeout 60 $L --shapes 1024x1024x1024,1000x1000x1000 --layouts NN-C,TT-C,TT-F --variants "auto;split=2;split=3;split=6;split=8" --reps 11
) > $O/tile.log 2>&1
echo "tile $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log
timeout 150 $B/example-level3_report --sections sgemm,rect,batched,dbatched --n 1024,4096 --layouts NN-C,TT-C,NN-F,TT-F --batch-small-k off,on --reps 11 --check 2048 > $O/l3.log 2>&1
echo "l3 $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log
# red: f64 reductions old vs new; sgemv grid shapes at 4096 and the skinny shapes
( timeout 60 $B/example-bandwidth_report --sets l1 --l1 20,26 --f64-legacy --reps 11
  timeout 70 $B/example-bandwidth_report --sets l2 --gemv 4096 --skinny 23 --sq "" --trsv "" --gemv-groups 512,1024,4096 --gemv-col-lanes 1,4,16 --reps 11
) > $O/red.log 2>&1
echo "red $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log
# cg: CG update and one-dispatch switch; chains
( timeout 40 $B/example-cg $R/data/1138_bus.mtx --update both --repeat 2
  timeout 40 $B/example-cg $R/data/1138_bus.mtx --update both --repeat 2 --one-dispatch-below 16384
  timeout 40 $B/example-chain_report --reps 11
  timeout 40 $B/example-chain_report --reps 11 --one-dispatch-below 16384 ) > $O/cg.log 2>&1
echo "cg $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log
# trsv: look-ahead strsv/dtrsv against the default
( timeout 90 $B/example-bandwidth_report --sets l2 --gemv "" --skinny "" --sq "" --trsv 4096,8192 --trsv-step 4,8,16 --trsv-prefetch --reps 11
 ) > $O/trsv.log 2>&1
echo "trsv $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log
fi
if [ "$2" = b ]; then
( timeout 250 $B/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
  timeout 60 $B/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
  timeout 40 $B/test-lib-wgblas --test-threads 8; timeout 20 $B/test-test-shaders ) > $O/tests.log 2>&1
echo "tests $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log
grep -E "test result|FAILED|panicked" $O/tests.log | head -20
# seg: strsm past one buffer
timeout 120 $B/example-scale_report --gemm "" --l1 "" --trsm 8192,32768 --nrhs 1024 --reps 11 > $O/seg.log 2>&1
echo "seg $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log
# references for the gemm and bmm shapes
REF_ONLY=gemm,bmm PYTHONUNBUFFERED=1 timeout 90 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
echo "ref $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log
fi
grep -h "^LAB\|^ROW" $O/*.log | head -400 > $O/rows-$2.txt
grep -hE "FAIL|panicked|Error" $O/*.log | head -20
