#!/bin/sh
# Final H200 run of the session (2026-11-30, third): suite, reports, cuBLAS/PyTorch references,
# one device command: R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R
cd /tmp/wgblas-bundle
R=$1
O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv >> $O/meta.log 2>&1
# The OOM test fills the GPU's memory, which the other tests share: it runs alone, after.
( timeout 200 ./bin/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
  timeout 60 ./bin/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
  timeout 60 ./bin/test-lib-wgblas --test-threads 8; timeout 30 ./bin/test-test-shaders ) > $O/tests.log 2>&1
grep -E "test result|FAILED|panicked" $O/tests.log | head -20
( timeout 60 ./bin/example-host_report --reps 11
  timeout 130 ./bin/example-level3_report --reps 11 --check 2048
  timeout 60 ./bin/example-bandwidth_report --reps 11 --trsv 4096,8192
  timeout 80 ./bin/example-scale_report
  timeout 30 ./bin/example-chain_report --reps 11
  for i in 1 2; do s=$(date +%s%N); timeout 30 ./bin/example-quickstart; echo "quickstart process wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; done
  timeout 40 ./bin/example-cg data/1138_bus.mtx ) > $O/reports.log 2>&1
grep -c "^ROW" $O/reports.log
REF_ONLY=gemm,level3,level1,level2,host,f64,bmm,scale PYTHONUNBUFFERED=1 timeout 150 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep -c "^REF" $O/ref.log; tail -2 $O/ref.log
