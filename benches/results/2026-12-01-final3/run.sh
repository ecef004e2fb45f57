#!/bin/sh
# Final H200 run of the stop (2026-12-01, third session), in device commands:
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R tests
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R reports   (the reports, then the cuBLAS,
#                                       PyTorch and copy references: one command, as BENCH.md asks)
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R scale     (scale report and its references)
cd /tmp/wgblas-bundle
R=$1
O=${OUT:-/tmp}
case "$2" in
tests)
  echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv >> $O/meta.log 2>&1
  # The OOM test fills the GPU's memory, which the other tests share: it runs alone, after.
  ( timeout 300 ./bin/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
    timeout 90 ./bin/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
    timeout 60 ./bin/test-lib-wgblas --test-threads 8; timeout 30 ./bin/test-test-shaders ) > $O/tests.log 2>&1
  grep -E "test result|FAILED|panicked" $O/tests.log | head -20
  ;;
reports)
  nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu,power.draw --format=csv -lms 100 > $O/clocks.csv 2>&1 &
  SMI=$!
  ( timeout 90 ./bin/example-host_report --reps 11
    timeout 150 ./bin/example-level3_report --reps 11 --check 2048
    for i in 1 2; do s=$(date +%s%N); timeout 30 ./bin/example-quickstart; echo "quickstart process wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; done
    timeout 40 ./bin/example-cg data/1138_bus.mtx ) > $O/reports.log 2>&1
  kill $SMI
  grep -c "^ROW" $O/reports.log; grep -E "Error|panicked" $O/reports.log | head
  REF_ONLY=gemm,level3,host,f64,bmm PYTHONUNBUFFERED=1 timeout 200 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
  grep -c "^REF" $O/ref.log; tail -2 $O/ref.log
  ;;
scale)
  ( timeout 300 ./bin/example-scale_report --gemm 8192,32768 --l1 26,30 --reps 11 ) > $O/scale.log 2>&1
  grep -E "^ROW|^# MEM|Error" $O/scale.log
  REF_ONLY=scale SCALE_SIZES=8192,32768 SCALE_L1=26,30 PYTHONUNBUFFERED=1 timeout 240 python3 $R/.gpu/reference.py > $O/scale-ref.log 2>&1
  grep "^REF" $O/scale-ref.log; tail -2 $O/scale-ref.log
  ;;
esac
