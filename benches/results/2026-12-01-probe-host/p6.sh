#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
timeout 200 ./bin/example-bandwidth_report --sets l2,lab-l2 --gemv 16384 --skinny "" --sq 16384 --trsv "" --reps 7 > $O/bw.log 2>&1
grep -E "^(ROW|LAB|REF)" $O/bw.log | grep -v gemv
