package org.spdl4j.examples.clicklog;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.examples.common.StageTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Tabular data for a recommendation model through a record ring (spdl4j-records): click-log rows (user, item, four
 * categorical ids, thirteen dense counts, a click label; {@link ClickRowDescriptor}) written at a fixed rate into one
 * preallocated off-heap block, normalized and hashed in place by two stages, and assembled by the consumer into
 * off-heap column batches ({@link ColumnBatchDescriptor}) that a training loop on this thread takes and trains a
 * logistic regression on ({@link WideModel}). Prints rows per second, the training loss, and each row's latency from
 * the source to its column in HdrHistogram, twice: from its scheduled send time (coordinated-omission corrected) and
 * from its actual send. See {@link ClickLogLoader} for the pipeline.
 *
 * <p>Zero garbage: rows live in the ring's block and batches in a preallocated block, both read and written through
 * flyweights; histograms are preallocated. Run: {@code bin/spdl4j-java -cp
 * "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*"
 * org.spdl4j.examples.clicklog.ClickLogExample [--rate 1000000] [--rows 2000000] [--wait BUSY_SPIN]}
 */
@Command(name = "click-log", mixinStandardHelpOptions = true,
    description = "Streams click-log rows through in-place feature stages on an off-heap record ring into column "
        + "batches for a training step; prints throughput, training loss and per-row latency percentiles.")
public final class ClickLogExample implements Callable<Integer> {
    /** Batches averaged for the first and last training loss printed. */
    private static final int LOSS_WINDOW = 20;
    /** Adagrad's learning rate. */
    private static final float LEARNING_RATE = 0.1f;

    @Spec
    private CommandSpec spec;

    @Option(names = "--rows", defaultValue = "" + ClickLogOptions.DEFAULT_ROWS, description = "rows, warm-up included")
    private long rows;

    @Option(names = "--rate", defaultValue = "" + ClickLogOptions.DEFAULT_RATE,
        description = "rows per second; 0: as fast as the pipeline goes")
    private long rate;

    @Option(names = "--warmup", defaultValue = "" + ClickLogOptions.DEFAULT_WARMUP_ROWS,
        description = "first rows not recorded in the latency histograms (JIT warm-up)")
    private long warmup;

    @Option(names = "--batch", defaultValue = "" + ClickLogOptions.DEFAULT_BATCH_SIZE, description = "rows per batch")
    private int batch;

    @Option(names = "--wait", defaultValue = "BUSY_SPIN", description = "BUSY_SPIN, YIELDING, BACKOFF or BLOCKING")
    private WaitPolicy wait;

    @Option(names = "--ring", defaultValue = "" + ClickLogOptions.DEFAULT_RING_CAPACITY,
        description = "record ring slots (power of two)")
    private int ring;

    @Option(names = "--normalize-threads", defaultValue = "1", description = "workers of the normalize stage")
    private int normalizeThreads;

    private long rowsInBatches;
    private long batches;
    private long clicks;
    private final double[] firstLosses = new double[LOSS_WINDOW];
    private final double[] lastLosses = new double[LOSS_WINDOW];
    private Histogram fromIntended = new Histogram(RowLatency.HIGHEST_NANOS, 3);

    /** Creates the command with its defaults (picocli sets the options). */
    public ClickLogExample() {
    }

    /**
     * Runs the example.
     *
     * @param args command-line options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(ExampleCommands.execute(new ClickLogExample(), args));
    }

    /** {@return rows delivered in column batches} */
    public long rowsInBatches() {
        return rowsInBatches;
    }

    /** {@return column batches delivered} */
    public long batches() {
        return batches;
    }

    /** {@return latencies from each row's scheduled send time to its column (coordinated-omission corrected), ns} */
    public Histogram fromIntended() {
        return fromIntended;
    }

    /** {@return the mean training loss of the first batches} */
    public double firstLoss() {
        return mean(firstLosses, Math.min(batches, LOSS_WINDOW));
    }

    /** {@return the mean training loss of the last batches} */
    public double lastLoss() {
        return mean(lastLosses, Math.min(batches, LOSS_WINDOW));
    }

    /**
     * {@return the log loss of a model that knows only the click rate (the entropy of the labels): what a model must
     * beat to have learnt anything from the features}
     */
    public double clickRateLoss() {
        double p = rowsInBatches == 0 ? 0.5 : (double) clicks / rowsInBatches;
        return p <= 0 || p >= 1 ? 0 : -(p * Math.log(p) + (1 - p) * Math.log(1 - p));
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        ClickLogOptions options;
        try {
            options = new ClickLogOptions(rows, rate, warmup, batch, ClickLogOptions.DEFAULT_BATCHES, ring, wait,
                normalizeThreads);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        WideModel model = new WideModel(batch, LEARNING_RATE);
        try (ClickLogLoader loader = ClickLogLoader.start(options)) {
            out.printf(Locale.ROOT, "%d click-log rows at %s through normalize (%d thread%s) and hash on one off-heap "
                + "record ring of %d slots, wait %s, into column batches of %d%n", rows,
                rate == 0 ? "full speed" : rate + "/s", normalizeThreads, normalizeThreads == 1 ? "" : "s", ring, wait,
                batch);
            long start = System.nanoTime();
            int lastSize = 0;
            for (ColumnBatch b; (b = loader.next()) != null; ) {
                double loss = model.step(b);
                if (batches < LOSS_WINDOW) {
                    firstLosses[(int) batches] = loss;
                }
                lastLosses[(int) (batches % LOSS_WINDOW)] = loss;
                batches++;
                rowsInBatches += b.size();
                lastSize = b.size();
                for (int j = 0; j < b.size(); j++) {
                    clicks += (long) b.label(j);
                }
                b.close();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf(Locale.ROOT, "%d rows in %d column batches (the last of %d rows), %.2f s, %,.0f rows/s%n",
                rowsInBatches, batches, lastSize, seconds, rowsInBatches / seconds);
            out.printf(Locale.ROOT, "training: log loss %.4f over the first %d batches, %.4f over the last %d "
                + "(%.4f knowing only the click rate, %.3f)%n", firstLoss(), Math.min(batches, LOSS_WINDOW), lastLoss(),
                Math.min(batches, LOSS_WINDOW), clickRateLoss(), (double) clicks / rowsInBatches);
            fromIntended = loader.latency().fromIntended();
            if (rate == 0) {
                print(out, "latency from send to column (unpaced: no schedule)", loader.latency().fromSent());
            } else {
                print(out, "latency from scheduled send to column (coordinated-omission corrected)", fromIntended);
                print(out, "latency from actual send to column (uncorrected)", loader.latency().fromSent());
            }
            StageTable.print(loader.stats(), out);
        }
        out.flush();
        return rowsInBatches == rows ? 0 : 1;
    }

    private static double mean(double[] values, long n) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += values[i];
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    private static void print(PrintWriter out, String title, Histogram h) {
        out.println(title + ", microseconds:");
        out.printf(Locale.ROOT, "  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  p99.99 %.1f  max %.1f  (n=%d)%n",
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getValueAtPercentile(99.9) / 1e3, h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3,
            h.getTotalCount());
    }
}
