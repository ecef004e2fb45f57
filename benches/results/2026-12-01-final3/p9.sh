#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
for r in 1 2; do for b in old mid new; do echo "== $b"; timeout 30 ./bin/chain_$b --reps 11 | grep ROW; done; done > $O/p9.log 2>&1
cat $O/p9.log
