#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
for p in 0 1 2 0; do echo "== SPROBE=$p"; SYMV_PROBE=$p timeout 60 ./bin/example-bandwidth_report --sets l2 --gemv "" --skinny "" --sq 16384 --trsv "" --reps 7 2>&1 | grep -E "# ssymv"; done > $O/symv.log 2>&1
cat $O/symv.log
