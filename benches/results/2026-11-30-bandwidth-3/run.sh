#!/bin/sh
# Level 1 and 2 once more, with cuBLAS and the device copy in the same command (probe 7 read
# 3.9-4.2 TB/s where run 3 read 1.7: the device's bandwidth differs from run to run).
# R=$PWD; bash .gpu/device.sh sh $R/.gpu/final.sh $R
cd /tmp/wgblas-bundle
R=$1
O=${OUT:-/tmp}
echo "wgblas at $(cat $R/.gpu/REV 2>/dev/null)" | tee $O/meta.log
( timeout 120 ./bin/example-bandwidth_report --reps 11 --trsv 4096,8192
  timeout 60 ./bin/example-chain_report --reps 11
  timeout 60 ./bin/example-cg data/1138_bus.mtx ) > $O/reports.log 2>&1
grep -c "^ROW" $O/reports.log
REF_ONLY=level1,level2 PYTHONUNBUFFERED=1 timeout 150 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
grep -c "^REF" $O/ref.log
