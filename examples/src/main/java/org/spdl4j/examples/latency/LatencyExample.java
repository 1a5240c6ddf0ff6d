package org.spdl4j.examples.latency;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.examples.slots.ExampleCommands;
import org.spdl4j.examples.slots.StageTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A latency-critical pipeline: small preallocated records ({@link Quote}) pushed at a fixed rate through two
 * single-threaded busy-spin stages (price, risk) to a consumer that checks each result and records its end-to-end
 * latency in HdrHistogram. Prints two histograms: from the scheduled send time (coordinated-omission corrected: what
 * a client sending at this rate would see) and from the actual send (what a naive benchmark reports).
 *
 * <pre>
 *  paced source ──ring──> price (1 thread) ──ring──> risk (1 thread) ──ring──> consumer: check, record latency
 *  (busy-spin to         all stages BUSY_SPIN by default: a core each; use --wait BACKOFF on a small machine
 *   each send time)
 * </pre>
 *
 * <p>Zero garbage in steady state: quotes are reused by sequence, rings are preallocated, histograms are recorded
 * into without allocation. Run: {@code bin/spdl4j-java -cp
 * "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*"
 * org.spdl4j.examples.latency.LatencyExample [--rate 100000] [--count 1000000] [--wait BUSY_SPIN]}
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
    description = "Pushes small records through busy-spin stages at a fixed rate and prints latency percentiles.")
public final class LatencyExample implements Callable<Integer> {
    private static final long HIGHEST_NANOS = 10_000_000_000L;

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

    @Option(names = "--ring", defaultValue = "1024", description = "ring capacity between stages (power of two)")
    private int ring;

    private final Histogram fromIntended = new Histogram(HIGHEST_NANOS, 3);
    private final Histogram fromSent = new Histogram(HIGHEST_NANOS, 3);
    private long received;
    private long wrong;

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
        return fromIntended;
    }

    /** {@return messages received in order with the right result} */
    public long received() {
        return received;
    }

    /** {@return messages out of order or with a wrong result (0 when the pipeline works)} */
    public long wrong() {
        return wrong;
    }

    @Override
    public Integer call() throws InterruptedException, TimeoutException {
        PrintWriter out = spec.commandLine().getOut();
        if (rate < 1 || rate > 1_000_000_000L || count < 1 || warmup < 0 || warmup >= count
            || Integer.bitCount(ring) != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "need 1 <= --rate <= 1e9, --count >= 1, 0 <= --warmup < --count, --ring a power of two");
        }
        // In flight at most: three rings, one quote per stage worker, one at the consumer (and one being made).
        int poolSize = Integer.highestOneBit(3 * ring + 8) << 1;
        StageOptions stage = StageOptions.defaults().withWaitPolicy(wait).withRingCapacity(ring).withConcurrency(1);
        try (Pipeline<Quote> pipeline = PipelineBuilder.<Quote>fromSource(() -> new PacedQuoteSource(count, rate,
                poolSize)).named("latency").sourceWaitPolicy(wait)
            .pipe("price", QuoteStages::price, stage)
            .pipe("risk", QuoteStages::risk, stage)
            .sink(ring, wait)
            .build()) {
            out.printf(Locale.ROOT, "%d messages at %d/s through 2 stages, wait %s, rings %d%n", count, rate, wait,
                ring);
            consume(pipeline);
            out.printf("received %d in order and correct, %d wrong%n", received, wrong);
            print(out, "latency from scheduled send (coordinated-omission corrected)", fromIntended);
            print(out, "latency from actual send (uncorrected)", fromSent);
            StageTable.print(pipeline.stats(), out);
        }
        out.flush();
        return wrong == 0 && received == count ? 0 : 1;
    }

    /** The consumer's loop: zero allocation per message (the sink waits by the pipeline's wait policy). */
    private void consume(Pipeline<Quote> pipeline) throws InterruptedException, TimeoutException {
        Duration timeout = Duration.ofSeconds(30);
        long expectedId = 0;
        Quote q;
        while ((q = pipeline.next(timeout)) != null) {
            long now = System.nanoTime();
            if (q.id != expectedId++ || q.notional != QuoteStages.expectedNotional(q.id)) {
                wrong++;
                continue;
            }
            received++;
            if (q.id >= warmup) {
                fromIntended.recordValue(Math.min(HIGHEST_NANOS, now - q.intendedNanos));
                fromSent.recordValue(Math.min(HIGHEST_NANOS, now - q.sentNanos));
            }
        }
    }

    private static void print(PrintWriter out, String title, Histogram h) {
        out.println(title + ", microseconds:");
        out.printf(Locale.ROOT, "  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  p99.99 %.1f  max %.1f  (n=%d)%n",
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getValueAtPercentile(99.9) / 1e3, h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3,
            h.getTotalCount());
    }
}
