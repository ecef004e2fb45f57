#!/bin/sh
cd /tmp/wgblas-bundle
O=${OUT:-/tmp}
timeout 100 ./bin/old-level3_report --sections batched,dbatched --reps 11 2>&1 | grep -E "^ROW|rror|panic" | tee $O/old.log
timeout 100 ./bin/example-level3_report --sections batched,dbatched --reps 11 2>&1 | grep -E "^ROW|rror|panic" | tee $O/new.log
REF_ONLY=bmm timeout 100 python3 reference.py 2>&1 | grep -E "^REF|rror" | tee $O/ref.log
