#!/bin/sh
# Session 6 probe q2b: Level 1 at n = 2^26 with the single-pass reductions capped at 1024
# (the default), 528, 264 and 132 workgroups (lab), to find the finish's share.
#   R=$PWD; bash .gpu/device.sh sh $R/.gpu/q2b.sh $R
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
for g in 0 528 264 132; do
  timeout 100 ./bin/example-bandwidth_report --sets l1 --l1 26 --reps 11 --reduction-groups $g > $O/l1-g$g.log 2>&1
  echo "== cap $g"; grep -E "^ROW,(sdot|sasum|snrm2|isamax|ddot|dasum|idamax|dnrm2|scopy)," $O/l1-g$g.log
done
