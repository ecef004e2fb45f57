#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
for i in 1 2 3; do for r in 52ab65b 603b93f 363c952; do echo "$r $(timeout 30 ./bin/rec_$r 2>&1 | tail -1)"; done; done > $O/p10.log 2>&1
cat $O/p10.log
