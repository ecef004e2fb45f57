#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
for f in r10_i_f32_n32 r10_j_f32_n32 r10_i_f64_n32 r10_j_f64_n32 direct4_f32 direct4_f64; do
  timeout 15 ./bin/batch_probe --batch 10000 --n 32 --reps 11 bk/$f.wgsl >> $O/p4.log 2>&1 || echo "BPROBE,$f,fail" >> $O/p4.log
done
for f in r10_i_f32_n16 r10_j_f32_n16 r10_i_f64_n16 r10_j_f64_n16 lib_like_f32; do
  timeout 15 ./bin/batch_probe --batch 10000 --n 16 --reps 11 bk/$f.wgsl >> $O/p4.log 2>&1 || echo "BPROBE,$f,fail" >> $O/p4.log
done
grep -E "BPROBE" $O/p4.log
