#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
for f in r10x_f32_n32 r10u_f32_n32 r10x_f64_n32 r10u_f64_n32 direct4_f32 direct4_f64 r10_j_f32_n32; do
  timeout 15 ./bin/batch_probe --batch 10000 --n 32 --reps 11 bk/$f.wgsl >> $O/p5.log 2>&1 || echo "BPROBE,$f,fail" >> $O/p5.log
done
for f in r10x_f32_n16 r10u_f32_n16 r10x_f64_n16; do
  timeout 15 ./bin/batch_probe --batch 10000 --n 16 --reps 11 bk/$f.wgsl >> $O/p5.log 2>&1 || echo "BPROBE,$f,fail" >> $O/p5.log
done
grep -E "BPROBE" $O/p5.log
