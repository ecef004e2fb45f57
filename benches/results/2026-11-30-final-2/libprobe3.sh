cd /tmp/wgblas-bundle
T=./bin/test-lib-wgblas
ok=0; bad=0
for i in $(seq 1 12); do
  if timeout 40 $T --test-threads 8 > /tmp/p.log 2>&1; then ok=$((ok+1)); else bad=$((bad+1)); grep -E "FAILED|panicked|failed" /tmp/p.log | head -5; fi
done
echo "lib tests, 8 threads, 12 passes: ok=$ok failed-or-hung=$bad"
tail -3 /tmp/p.log
