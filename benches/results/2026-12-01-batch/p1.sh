#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $O/p1.log 2>&1
( timeout 120 ./bin/batch_probe --batch 10000 --n 32 --reps 11 bk/*.wgsl
  timeout 60 ./bin/batch_probe --batch 40000 --n 32 --reps 11 bk/direct4_f32.wgsl bk/smem4x64_f32.wgsl bk/lib_like_f32.wgsl
  timeout 200 ./bin/level3_report --sections batched,dbatched --batched 10000x32x32x32,2500x32x32x32,40000x32x32x32,10000x16x16x16,10000x64x64x64 --reps 11 --check 0
) >> $O/p1.log 2>&1
grep -E "BPROBE|ROW|^# s|^# d" $O/p1.log
