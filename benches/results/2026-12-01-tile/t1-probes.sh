#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv
timeout 200 ./bin/example-tile_probe --n 4096 --reps 11 k/*.wgsl 2>&1 | tee $O/probe4096.log
timeout 200 ./bin/example-tile_probe --n 8192 --reps 7 k/eng_loop.wgsl k/eng_unroll.wgsl k/warp4.wgsl k/warp8.wgsl k/warp4_bk8.wgsl k/warp8_128x256.wgsl k/warp4_256x128.wgsl 2>&1 | tee $O/probe8192.log
