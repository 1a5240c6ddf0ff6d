package org.spdl4j.examples.latency;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.records.RecordPipeline;
import org.spdl4j.records.RecordPipelineBuilder;
import org.spdl4j.examples.slots.ExampleCommands;
import org.spdl4j.examples.slots.StageTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A latency-critical pipeline on an engine record ring: 64-byte records ({@link QuoteRecord}) in one preallocated
 * off-heap block, written at a fixed rate by the source, transformed in place by two single-threaded busy-spin
 * stages (price, risk), read by a consumer that checks each result and records its end-to-end latency in
 * HdrHistogram. Prints two histograms: from the scheduled send time (coordinated-omission corrected: what
 * a client sending at this rate would see) and from the actual send (what a naive benchmark reports).
 *
 * <pre>
 *  one record ring (off-heap, 64 B slots); records never move, each stage waits on the one before:
 *  paced source -> price (1 thread, in place) -> risk (1 thread, in place) -> consumer: check, record latency
 *  (busy-spin to    BUSY_SPIN by default: a core per thread; use --wait BACKOFF on a small machine
 *   each send time)
 * </pre>
 *
 * <p>Zero garbage: records live in the ring's block and are read and written through flyweights; histograms are
 * preallocated and recording into them does not allocate. Run: {@code bin/spdl4j-java -cp
 * "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*"
 * org.spdl4j.examples.latency.LatencyExample [--rate 100000] [--count 1000000] [--wait BUSY_SPIN]}
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
    description = "Pushes small records through busy-spin stages at a fixed rate and prints latency percentiles.")
public final class LatencyExample implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--rate", defaultValue = "100000", description = "messages per second")
    private long rate;

    @Option(names = "--count", defaultValue = "1000000", description = "messages, warm-up included")
    private long count;

    @Option(names = "--warmup", defaultValue = "100000", description = "first messages not recorded (JIT warm-up)")
    private long warmup;

    @Option(names = "--wait", defaultValue = "BUSY_SPIN", description = "BUSY_SPIN, YIELDING, BACKOFF or BLOCKING")
    private WaitPolicy wait;

    @Option(names = "--ring", defaultValue = "1024", description = "record ring slots (power of two)")
    private int ring;

    private LatencyRecorder recorder = new LatencyRecorder(0);

    /** Creates the command with its defaults (picocli sets the options). */
    public LatencyExample() {
    }

    /**
     * Runs the example.
     *
     * @param args command-line options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(ExampleCommands.execute(new LatencyExample(), args));
    }

    /** {@return latencies from each message's scheduled send time (coordinated-omission corrected), ns} */
    public Histogram fromIntended() {
        return recorder.fromIntended();
    }

    /** {@return messages received in order with the right result} */
    public long received() {
        return recorder.received();
    }

    /** {@return messages out of order or with a wrong result (0 when the pipeline works)} */
    public long wrong() {
        return recorder.wrong();
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (rate < 1 || rate > 1_000_000_000L || count < 1 || warmup < 0 || warmup >= count
            || Integer.bitCount(ring) != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "need 1 <= --rate <= 1e9, --count >= 1, 0 <= --warmup < --count, --ring a power of two");
        }
        recorder = new LatencyRecorder(warmup);
        try (RecordPipeline pipeline = RecordPipelineBuilder.named("latency").recordLength(QuoteRecord.LENGTH)
            .ringCapacity(ring).waitPolicy(wait)
            .source(new PacedQuoteSource(count, rate))
            .stage("price", QuoteStages::price, 1)
            .stage("risk", QuoteStages::risk, 1)
            .consumer(recorder)
            .build().start()) {
            out.printf(Locale.ROOT, "%d records at %d/s through 2 stages on one off-heap record ring, wait %s, "
                + "%d slots%n", count, rate, wait, ring);
            long budgetSeconds = 60 + 10 * count / rate;
            if (!pipeline.awaitCompletion(Duration.ofSeconds(budgetSeconds))) {
                throw new IllegalStateException("latency pipeline did not finish in " + budgetSeconds + " s");
            }
            out.printf(Locale.ROOT, "received %d in order and correct, %d wrong%n", recorder.received(), recorder.wrong());
            print(out, "latency from scheduled send (coordinated-omission corrected)", recorder.fromIntended());
            print(out, "latency from actual send (uncorrected)", recorder.fromSent());
            StageTable.print(pipeline.stats(), out);
        }
        out.flush();
        return recorder.wrong() == 0 && recorder.received() == count ? 0 : 1;
    }

    private static void print(PrintWriter out, String title, Histogram h) {
        out.println(title + ", microseconds:");
        out.printf(Locale.ROOT, "  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  p99.99 %.1f  max %.1f  (n=%d)%n",
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getValueAtPercentile(99.9) / 1e3, h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3,
            h.getTotalCount());
    }
}
