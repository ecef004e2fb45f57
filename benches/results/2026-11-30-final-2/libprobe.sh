cd /tmp/wgblas-bundle
for i in 1 2 3 4 5 6; do
  echo "== pass $i (threads 1)"; timeout 30 ./bin/test-lib-wgblas --test-threads 1 2>&1 | grep -v " ok$" | tail -4; echo "rc=$?"
done
for i in 1 2 3 4 5 6; do
  echo "== pass $i (threads 8)"; timeout 30 ./bin/test-lib-wgblas --test-threads 8 2>&1 | tail -2
done
