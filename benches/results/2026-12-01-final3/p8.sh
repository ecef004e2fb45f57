#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
( timeout 30 ./bin/example-chain_report --reps 11; timeout 40 ./bin/example-cg data/1138_bus.mtx; timeout 40 ./bin/example-cg data/1138_bus.mtx ) > $O/p8.log 2>&1
grep -E "^ROW|chain|wall" $O/p8.log
