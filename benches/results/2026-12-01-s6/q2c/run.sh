#!/bin/sh
# Session 6 probe q2c: Level 1 at n = 2^26, the single-pass reductions with 4 or 8 units per
# loop iteration (lab unroll8) and 1024, 528 or 264 workgroups (lab cap; 0 = 1024).
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q2c.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
# A first run to bring the clock up (its rows are kept, not used).
timeout 100 ./bin/example-bandwidth_report --sets l1 --l1 26 --reps 5 > $O/l1-warm.log 2>&1
for u in 0 1; do for g in 0 528 264; do
  timeout 100 ./bin/example-bandwidth_report --sets l1 --l1 26 --reps 11 --reduction-groups $g --reduction-unroll8 $u > $O/l1-u$u-g$g.log 2>&1
  echo "== unroll8 $u cap $g"; grep -E "^ROW,(sdot|sasum|snrm2|isamax|scopy)," $O/l1-u$u-g$g.log | cut -d, -f2,7 | tr '\n' ' '; echo
done; done
