#!/bin/sh
# Session 10 (2026-12-02), final H200 runs, two device commands (one bundle):
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R a   (the suite, Level 3 report with the strsm and strmm forms, references)
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R b   (Level 1/2 and f64, chains, host, quickstart, CG, references)
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta-$2.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta-$2.log 2>&1
s0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - s0 )) s" | tee -a $O/meta-$2.log; }
case "$2" in
a)
  # The OOM test fills the GPU's memory, which the other tests share: it runs alone, after.
  ( timeout 230 $B/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
    timeout 50 $B/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
    timeout 30 $B/test-lib-wgblas --test-threads 8; timeout 20 $B/test-test-shaders ) > $O/tests.log 2>&1
  t tests a
  grep -E "test result|FAILED|panicked" $O/tests.log | head -20
  timeout 170 $B/example-level3_report --reps 11 --check 2048 > $O/l3.log 2>&1
  t l3 a; grep -c "^ROW" $O/l3.log; grep -E "FAIL|Error|panicked" $O/l3.log | head
  timeout 80 $B/example-level3_report --sections trsm,trmm --level3-n 4096 --check 1024 --reps 11 --trsm-inverse off,columns,rows64,staged,staged4,engine --tri-order heavy,grid > $O/forms.log 2>&1
  t forms a; grep -E "^ROW" $O/forms.log
  timeout 60 $B/example-level3_report --sections batched,dbatched --batched 10000x32x32x32 --reps 11 --small-variant direct,staged,staged:16,staged:8 > $O/small.log 2>&1
  t small a; grep -E "^ROW" $O/small.log
  REF_ONLY=gemm,level3,bmm PYTHONUNBUFFERED=1 timeout 100 python3 $R/.gpu/reference.py > $O/l3-ref.log 2>&1
  t ref a; grep -c "^REF" $O/l3-ref.log; tail -1 $O/l3-ref.log
  ;;
b)
  ( timeout 150 $B/example-bandwidth_report --sets l1,l2,f64 --reps 11
    timeout 30 $B/example-chain_report --reps 11
    timeout 80 $B/example-host_report --reps 11
    for i in 1 2; do s=$(date +%s%N); timeout 30 $B/example-quickstart; echo "quickstart process wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; done
    timeout 30 $B/example-cg $R/data/1138_bus.mtx --repeat 2 ) > $O/l12.log 2>&1
  t l12 b; grep -c "^ROW" $O/l12.log; grep -E "FAIL|Error|panicked" $O/l12.log | head
  REF_ONLY=level1,level2,f64,host PYTHONUNBUFFERED=1 timeout 150 python3 $R/.gpu/reference.py > $O/l12-ref.log 2>&1
  t ref b; grep -c "^REF" $O/l12-ref.log; tail -1 $O/l12-ref.log
  grep -E "resident  |sgemm [0-9x]+ host:|^ROW,(upload|readback|chain)" $O/l12.log | grep -v "^CHECK" | head -30
  ;;
esac
