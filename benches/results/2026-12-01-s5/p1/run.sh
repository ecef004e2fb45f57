#!/bin/sh
# H200 probe p1 (session 5): transfer paths (bar / sys staging / host-pointer import) and the host report at main 1898478.
cd /tmp/wgblas-bundle
R=$1; O=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,pstate --format=csv > $O/meta.log 2>&1
timeout 120 ./bin/example-transfer_probe --mib 16,64,256 --reps 7 > $O/transfer_probe.log 2>&1
timeout 150 ./bin/example-host_report --reps 11 --lone 4096 > $O/host_report.log 2>&1
REF_ONLY=host PYTHONUNBUFFERED=1 timeout 100 python3 $R/.gpu/reference.py > $O/ref.log 2>&1
cat $O/transfer_probe.log; grep "^#" $O/host_report.log | tail -30; grep -v "^#" $O/ref.log | tail
