#!/usr/bin/env python3
"""Runs JMH variants in alternation, one fork per JMH invocation, and reports per-round figures and ratios.

A shared, noisy machine drifts between a fast and a slow state over minutes; JMH runs all forks of one benchmark
before the next, so a ratio of two benchmarks' medians can compare two machine states. Here every round runs each
variant once (in a rotated order), a ratio is taken within each round, and the summary is the median of the
per-round ratios with their range.

usage: perf/alternate.py [--rounds N] [--jmh "JMH ARGS"] [--out FILE.csv] LABEL=REGEX[@p=v[@p=v...]] ...

  The first variant is the reference of the ratios. Throughput benchmarks report their score; SampleTime
  benchmarks report p50 / p99 / p99.9 / p99.99 / max of the round trip. A variant's @jar=PATH runs another build's
  benchmarks jar (a before/after comparison); the default is perf/target/benchmarks.jar. A variant's @jvm=ARGS
  appends JVM options to its fork (one @jvm per variant; separate several options with spaces), e.g.
  @jvm=-XX:-UseCompressedOops to compare a JVM setting within one build.

examples (from the repository root, after mvn -B -q -pl perf -am package -DskipTests):
  perf/alternate.py --rounds 8 abq='PipelineThroughputBenchmark.blockingQueue$' \\
      spdl4j='PipelineThroughputBenchmark.spdl4j$@waitPolicy=YIELDING@publishBatching=SHORT_TASKS'
  perf/alternate.py --rounds 5 --jmh "-wi 3 -i 5 -w 2s -r 2s" floor='HandOffLatencyBenchmark.volatileFlag$' \\
      spdl4j='HandOffLatencyBenchmark.spdl4j$@waitPolicy=BUSY_SPIN' jctools='HandOffLatencyBenchmark.jctools'
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PERCENTILES = [("p50", "50.0"), ("p99", "99.0"), ("p99.9", "99.9"), ("p99.99", "99.99"), ("max", "100.0")]


def parse_variant(text):
    label, _, rest = text.partition("=")
    parts = rest.split("@")
    params = []
    jar = os.path.join(ROOT, "perf", "target", "benchmarks.jar")
    for p in parts[1:]:
        name, _, value = p.partition("=")
        if name == "jar":
            jar = os.path.abspath(value)
        elif name == "jvm":
            params += ["-jvmArgsAppend", value]
        else:
            params += ["-p", f"{name}={value}"]
    return label, parts[0], params + ["--jar", jar]


def run_once(regex, params, jmh_args):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    jar = params[-1]
    params = params[:-2]
    cmd = [os.path.join(ROOT, "bin", "spdl4j-java"), "-jar", jar,
           regex, "-f", "1", *jmh_args.split(), *params, "-rf", "json", "-rff", out]
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit(f"JMH failed ({' '.join(cmd)}):\n{done.stdout[-4000:]}")
    with open(out) as f:
        results = json.load(f)
    os.unlink(out)
    if len(results) != 1:
        sys.exit(f"{regex} {params}: expected one benchmark, JMH ran {len(results)}; make the regex narrower")
    metric = results[0]["primaryMetric"]
    if results[0]["mode"] == "sample":
        return {name: metric["scorePercentiles"][key] for name, key in PERCENTILES}, metric["scoreUnit"]
    return {"score": metric["score"]}, metric["scoreUnit"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--jmh", default="-wi 3 -i 4 -w 2s -r 2s", help="JMH options other than -f (default: %(default)s)")
    ap.add_argument("--out", help="also write every round's figures to this CSV")
    ap.add_argument("variants", nargs="+")
    a = ap.parse_args()
    variants = [parse_variant(v) for v in a.variants]
    rows = []  # (round, label, {metric: value})
    unit = ""
    for r in range(a.rounds):
        order = variants[r % len(variants):] + variants[:r % len(variants)]  # rotate who runs first
        for label, regex, params in order:
            figures, unit = run_once(regex, params, a.jmh)
            rows.append((r, label, figures))
            shown = "  ".join(f"{k} {v:,.1f}" for k, v in figures.items())
            print(f"round {r + 1}/{a.rounds}  {label:<12} {shown} {unit}", flush=True)
    metrics = list(rows[0][2].keys())
    ref = variants[0][0]
    print(f"\nmedian over {a.rounds} rounds ({unit}); ratio = variant / {ref} within each round, median [min-max]")
    for label, _, _ in variants:
        mine = [f for _, l, f in rows if l == label]
        cells = []
        for m in metrics:
            med = statistics.median(f[m] for f in mine)
            cell = f"{m} {med:,.1f}"
            if label != ref:
                ratios = [mine[r][m] / refs[m] for r, refs in enumerate(f for _, l, f in rows if l == ref)]
                cell += f" ({statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}])"
            cells.append(cell)
        print(f"  {label:<12} " + "  ".join(cells))
    if a.out:
        with open(a.out, "w") as f:
            f.write("round,variant," + ",".join(metrics) + "\n")
            for r, label, figures in rows:
                f.write(f"{r + 1},{label}," + ",".join(str(figures[m]) for m in metrics) + "\n")


if __name__ == "__main__":
    main()
