#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
for f in bk/gen32_f32_g1056.wgsl bk/gen32_f32_g2112.wgsl bk/gen32_f32_g4224.wgsl bk/gen32_f64_g1056.wgsl bk/gen32_f64_g2112.wgsl bk/loop_f64_t256_g1056.wgsl bk/loop_f64_t256_g2112.wgsl bk/smem1x256_f32.wgsl; do
  timeout 15 ./bin/batch_probe --batch 10000 --n 32 --reps 11 $f >> $O/p3.log 2>&1 || echo "BPROBE,$f,timeout-or-fail" >> $O/p3.log
done
grep -E "BPROBE" $O/p3.log
