#!/usr/bin/env bash
# Runs the benchmarks whose figures docs/benchmarks.md reports, on this machine, into perf/target/bench-<date>/.
#   perf/bench.sh            JMH suite (engine, offheap, media, source) + end-to-end harness
#   perf/bench.sh jmh        only the JMH suite
#   perf/bench.sh e2e [DIR]  only the end-to-end harness (default: a generated ImageNet-like sample of 2,048 JPEGs)
# GPU benchmarks are separate (cuda-staging/README.md). Quote ratios from one run: the machine may be shared.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
what="${1:-all}"
out="perf/target/bench-$(date -u +%Y%m%dT%H%M)"
mkdir -p "$out"
mvn -B -q -ntp -DskipTests package -pl perf -am
java="bin/spdl4j-java"
{ uname -a; nproc; grep -m1 'model name' /proc/cpuinfo; uptime; } > "$out/machine.txt"

if [ "$what" = all ] || [ "$what" = jmh ]; then
  # The engine throughput table: 3 forks x 4 iterations, allocation and the scheduler's view (docs/benchmarks.md).
  $java -jar perf/target/benchmarks.jar 'engine.PipelineThroughputBenchmark' -prof gc \
    -prof org.spdl4j.perf.profile.ContextSwitchProfiler -f 3 -wi 3 -i 4 -w 2s -r 2s \
    -rf json -rff "$out/jmh-engine-throughput.json" 2>&1 | tee "$out/jmh-engine-throughput.txt"
  # The ratio to the ArrayBlockingQueue pipeline, variants alternated round by round (the figure the 5x goal reads).
  python3 perf/alternate.py --rounds 8 --out "$out/engine-ratio.csv" \
    abq='PipelineThroughputBenchmark.blockingQueue$' \
    spdl4jYield='PipelineThroughputBenchmark.spdl4j$@waitPolicy=YIELDING@publishBatching=SHORT_TASKS' \
    spdl4jBackoff='PipelineThroughputBenchmark.spdl4j$@waitPolicy=BACKOFF@publishBatching=SHORT_TASKS' \
    jctools='PipelineThroughputBenchmark.jctoolsSpsc$' 2>&1 | tee "$out/engine-ratio.txt"
  # Hand-off latency, alternated: every variant's round trip is the same volatile request plus the hop under test.
  python3 perf/alternate.py --rounds 5 --jmh "-wi 3 -i 5 -w 2s -r 2s" --out "$out/handoff.csv" \
    floor='HandOffLatencyBenchmark.volatileFlag$' spdl4jBusySpin='HandOffLatencyBenchmark.spdl4j$@waitPolicy=BUSY_SPIN' \
    spdl4jBackoff='HandOffLatencyBenchmark.spdl4j$@waitPolicy=BACKOFF' jctools='HandOffLatencyBenchmark.jctools' \
    abq='HandOffLatencyBenchmark.blockingQueue$' 2>&1 | tee "$out/handoff.txt"
  # Everything else once, briefly.
  $java -jar perf/target/benchmarks.jar 'org.spdl4j.perf.(engine|offheap|media|source)' -e 'org.spdl4j.perf.cuda' \
    -e 'PipelineThroughputBenchmark' -e 'HandOffLatencyBenchmark' \
    -f 1 -wi 3 -i 5 -w 2s -r 2s -prof gc -rf json -rff "$out/jmh.json" 2>&1 | tee "$out/jmh.txt"
fi
if [ "$what" = all ] || [ "$what" = e2e ]; then
  data="${2:-}"
  if [ -z "$data" ]; then
    data="$HOME/.cache/spdl4j/sample-2048"
    $java -cp "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*" \
      org.spdl4j.examples.cli.Spdl4jCommand run --images 2048 --no-progress > /dev/null  # generates the sample
  fi
  $java -cp perf/target/benchmarks.jar org.spdl4j.perf.e2e.E2eHarness "$data" --repeats 5 --out "$out" \
    --torch "$root/../shared/bench/torch_baseline.py" 2>&1 | tee "$out/e2e-run.txt"
fi
echo "results in $out"
