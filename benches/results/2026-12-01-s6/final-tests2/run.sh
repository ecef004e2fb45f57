#!/bin/sh
# Final H200 run of session 6 (2026-12-01), in two device commands:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q3.sh $R tests
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q3.sh $R l12   (Level 1/2 and f64, chains, host, CG + refs)
cd /tmp/wgblas-bundle
R=$1
O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pstate --format=csv >> $O/meta.log 2>&1
case "$2" in
tests)
  # The OOM test fills the GPU's memory, which the other tests share: it runs alone, after.
  ( timeout 300 ./bin/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
    timeout 90 ./bin/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
    timeout 60 ./bin/test-lib-wgblas --test-threads 8; timeout 30 ./bin/test-test-shaders ) > $O/tests.log 2>&1
  grep -E "test result|FAILED|panicked" $O/tests.log | head -20
  ;;
l12)
  ( timeout 170 ./bin/example-bandwidth_report --sets l1,l2,f64 --reps 11
    timeout 40 ./bin/example-chain_report --reps 11
    timeout 90 ./bin/example-host_report --reps 11
    for i in 1 2; do s=$(date +%s%N); timeout 30 ./bin/example-quickstart; echo "quickstart process wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; done
    timeout 40 ./bin/example-cg data/1138_bus.mtx ) > $O/l12.log 2>&1
  grep -c "^ROW" $O/l12.log; grep -E "FAIL|Error|panicked" $O/l12.log | head
  REF_ONLY=level1,level2,f64,host PYTHONUNBUFFERED=1 timeout 200 python3 $R/.gpu/reference.py > $O/l12-ref.log 2>&1
  grep -c "^REF" $O/l12-ref.log; tail -2 $O/l12-ref.log
  grep -E "ssymv|chain|resident  |sgemm [0-9x]+ host:" $O/l12.log | grep -v "^CHECK" | head -30
  ;;
esac
