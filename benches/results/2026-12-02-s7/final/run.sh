#!/bin/sh
# Session 7 (2026-12-02), final H200 runs, two device commands:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R a   (the suite, Level 3 report, its references)
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R b   (Level 1/2 and f64, chains, host, CG, references)
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R tests   (the suite again, after the fixes of run a)
# (b and tests ran in one command: ... $R b; sh $R/.gpu/final.sh $R tests)
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}; B=./bin
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta-$2.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta-$2.log 2>&1
case "$2" in
a)
  # The OOM test fills the GPU's memory, which the other tests share: it runs alone, after.
  s=$(date +%s)
  ( timeout 280 $B/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
    timeout 90 $B/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
    timeout 60 $B/test-lib-wgblas --test-threads 8; timeout 30 $B/test-test-shaders ) > $O/tests.log 2>&1
  echo "tests took $(( $(date +%s) - s )) s" | tee -a $O/meta-a.log
  grep -E "test result|FAILED|panicked" $O/tests.log | head -20
  timeout 200 $B/example-level3_report --reps 11 --check 2048 > $O/l3.log 2>&1
  grep -c "^ROW" $O/l3.log; grep -E "FAIL|Error|panicked" $O/l3.log | head
  REF_ONLY=gemm,level3,bmm PYTHONUNBUFFERED=1 timeout 120 python3 $R/.gpu/reference.py > $O/l3-ref.log 2>&1
  grep -c "^REF" $O/l3-ref.log; tail -1 $O/l3-ref.log
  ;;
b)
  ( timeout 170 $B/example-bandwidth_report --sets l1,l2,f64 --reps 11
    timeout 40 $B/example-chain_report --reps 11
    timeout 90 $B/example-host_report --reps 11
    for i in 1 2; do s=$(date +%s%N); timeout 30 $B/example-quickstart; echo "quickstart process wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; done
    timeout 40 $B/example-cg $R/data/1138_bus.mtx ) > $O/l12.log 2>&1
  grep -c "^ROW" $O/l12.log; grep -E "FAIL|Error|panicked" $O/l12.log | head
  REF_ONLY=level1,level2,f64,host PYTHONUNBUFFERED=1 timeout 200 python3 $R/.gpu/reference.py > $O/l12-ref.log 2>&1
  grep -c "^REF" $O/l12-ref.log; tail -1 $O/l12-ref.log
  grep -E "chain|resident  |sgemm [0-9x]+ host:|^ROW,(upload|readback)" $O/l12.log | grep -v "^CHECK" | head -30
  ;;
tests)
  s=$(date +%s)
  ( timeout 200 $B/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
    timeout 40 $B/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
    timeout 30 $B/test-lib-wgblas --test-threads 8; timeout 20 $B/test-test-shaders ) > $O/tests2.log 2>&1
  echo "tests took $(( $(date +%s) - s )) s" | tee -a $O/meta-tests.log
  grep -E "test result|FAILED|panicked" $O/tests2.log | head -20
  ;;
esac
