#!/bin/sh
# H200 run 4 of 2026-11-30: the suite on the merged main (the OOM test alone, after the parallel
# run: its child fills the GPU memory the other tests share), the scale report at the largest
# sizes one H200 buffer holds (max_buffer_size is 4094 MiB: a 32768² f32 matrix of exactly
# 4 GiB is past it), the f64 Cholesky example, and the cuBLAS rows at the same sizes.
# One device command: R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R
cd /tmp/wgblas-bundle
R=$1
O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv >> $O/meta.log 2>&1
( timeout 200 ./bin/test-test-wgblas --test-threads 8 --skip host::out_of_memory_is_a_typed_error
  timeout 90 ./bin/test-test-wgblas host::out_of_memory_is_a_typed_error --exact
  timeout 60 ./bin/test-lib-wgblas --test-threads 8; timeout 30 ./bin/test-test-shaders ) > $O/tests.log 2>&1
grep -E "test result|FAILED|panicked" $O/tests.log | head -20
( timeout 150 ./bin/example-scale_report --gemm 8192,32000 --l1 26,29 --reps 11
  timeout 60 ./bin/example-cholesky ) > $O/reports.log 2>&1
grep -E "^ROW|^CHECK|^# MEM|Error" $O/reports.log
REF_ONLY=scale SCALE_SIZES=8192,32000 SCALE_L1=26,29 PYTHONUNBUFFERED=1 timeout 120 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep "^REF" $O/ref.log; tail -2 $O/ref.log
