#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
( timeout 200 ./bin/level3_report --sections batched,dbatched --batched 10000x32x32x32,256x512x512x512,10000x16x16x16,10000x64x64x64 --reps 11 --check 64 ) > $O/p6.log 2>&1
grep -E "^ROW|^# s|^# d|rror|panic" $O/p6.log
