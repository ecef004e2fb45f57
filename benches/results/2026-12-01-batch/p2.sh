#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
( timeout 200 ./bin/batch_probe --batch 10000 --n 32 --reps 11 bk/loop*.wgsl bk/gen32*.wgsl bk/smem1x256_f32.wgsl bk/direct4_f64.wgsl
  timeout 60 ./bin/batch_probe --batch 10000 --n 16 --reps 11 bk/gen32_f32_g1056.wgsl bk/gen32_f32_g2112.wgsl bk/gen32_f64_g2112.wgsl
) > $O/p2.log 2>&1
grep -E "BPROBE" $O/p2.log
