#!/usr/bin/env bash
# Peak RSS of decoding six generated 9500x9500 PNGs on 1, 2 and 4 threads, with the shared decode memory budget
# (default size) and without one, one process per row (docs/benchmarks.md, "Decode memory").
# Build first: mvn -B -q -pl perf -am package -DskipTests
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for budget in default unlimited; do
  for threads in 1 2 4; do
    "$root/bin/spdl4j-java" -Xmx1g -cp "$root/perf/target/benchmarks.jar" org.spdl4j.perf.media.DecodeMemoryRss \
      "$threads" "$budget" 2>/dev/null
  done
done
