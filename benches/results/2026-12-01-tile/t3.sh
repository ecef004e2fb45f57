#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
timeout 200 ./bin/example-tile_probe --n 4096 --reps 11 k/*.wgsl 2>&1 | tee $O/probe4096.log
timeout 100 ./bin/example-tile_probe --n 8192 --reps 7 k/w8_64x128_fn.wgsl k/w8_64x128_fn_u4.wgsl k/w8_128x128_fn.wgsl 2>&1 | tee $O/probe8192.log
