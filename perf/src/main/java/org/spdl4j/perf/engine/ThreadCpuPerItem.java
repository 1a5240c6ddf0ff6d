package org.spdl4j.perf.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.WaitPolicy;

/**
 * CPU time per item, thread by thread, of one {@link PipelineThroughputBenchmark} variant: where a throughput figure's
 * CPU goes. Run it pinned to one CPU ({@code taskset -c 1}): then every thread's CPU time is its own work per item
 * plus its share of the yields that hand the CPU round, with no cross-core traffic and no idle spinning on another
 * core, so variants compare by what their code costs per item. JMH's throughput on two or more CPUs depends on that
 * cost and on how the scheduler interleaves the threads; this separates the first.
 *
 * <pre>
 * taskset -c 1 bin/spdl4j-java -cp perf/target/benchmarks.jar org.spdl4j.perf.engine.ThreadCpuPerItem \
 *     spdl4j|jctools|abq|records [ITEMS [ROUNDS]]
 * </pre>
 *
 * <p>Each round builds the pipeline (spdl4j: {@code YIELDING}, publish batching, as the benchmark's headline
 * variant), takes a quarter of {@code ITEMS} as warm-up, then {@code ITEMS} measured, and prints items/s and, per
 * pipeline thread, CPU nanoseconds per item from {@link ThreadMXBean}, and their total. The consumer is this
 * program's {@code main} thread, as JMH's thread is in the benchmark. Other threads (JIT compilers, GC) are left out
 * of the total: printed as {@code other} when they used 1 ms or more.
 */
public final class ThreadCpuPerItem {
    /** The variants' own threads: the consumer ({@code main}), the engine's, JCTools', the executor's. */
    private static final Pattern PIPELINE_THREAD =
            Pattern.compile("main|spdl4j-bench-.+|jctools-.+|pool-\\d+-thread-\\d+");

    private ThreadCpuPerItem() {
    }

    /**
     * Runs the measurement.
     *
     * @param args variant ({@code spdl4j}, {@code jctools}, {@code abq}, {@code records}), items (default 20,000,000), rounds (3)
     * @throws Exception when the pipeline fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: ThreadCpuPerItem spdl4j|jctools|abq|records [ITEMS [ROUNDS]]");
            System.exit(2);
        }
        long items = args.length > 1 ? Long.parseLong(args[1]) : 20_000_000L;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        for (int r = 0; r < rounds; r++) {
            System.out.println(measure(args[0], items).format(args[0]));
        }
    }

    /** One round's figures: items/s, CPU ns per item by pipeline thread, and of every other thread together. */
    record Result(double itemsPerSecond, Map<String, Double> nanosPerItem, double otherNanosPerItem) {
        double totalNanosPerItem() {
            return nanosPerItem.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        String format(String variant) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %.1f M items/s, %.1f ns CPU/item:",
                    variant, itemsPerSecond / 1e6, totalNanosPerItem()));
            nanosPerItem.forEach((thread, ns) -> line.append(String.format(Locale.ROOT, " %s %.1f", thread, ns)));
            if (otherNanosPerItem > 0) {
                line.append(String.format(Locale.ROOT, " (other %.1f)", otherNanosPerItem));
            }
            return line.toString();
        }
    }

    static Result measure(String variant, long items) throws Exception {
        if (variant.equals("records")) {
            return measureRecords(items);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ItemPipeline pipeline = switch (variant) {
            case "spdl4j" -> new EnginePipeline(WaitPolicy.YIELDING, PublishBatching.SHORT_TASKS,
                    StagePlacement.NONE);
            case "jctools" -> new SpscQueuePipeline(StagePlacement.NONE);
            case "abq" -> new BlockingQueuePipeline(StagePlacement.NONE);
            default -> throw new IllegalArgumentException("variant must be spdl4j, jctools, abq or records, got " + variant);
        };
        try {
            long check = 0;
            for (long i = 0; i < items / 4; i++) {
                check += pipeline.take();
            }
            Map<String, Long> before = cpuByName(threads);
            long start = System.nanoTime();
            for (long i = 0; i < items; i++) {
                check += pipeline.take();
            }
            long wall = System.nanoTime() - start;
            Map<String, Long> after = cpuByName(threads);
            if (check == Long.MIN_VALUE) { // keeps the consumer's reads live; never true
                System.out.println(check);
            }
            return perItem(before, after, items, wall);
        } finally {
            pipeline.stop();
        }
    }

    /**
     * The record-ring variant ({@link RecordItemPipeline}, YIELDING, 64-byte slots): its consumer is an engine
     * thread, so this program's {@code main} only parks until the consumer has counted the records (and is woken
     * once per {@link PipelineThroughputBenchmark#BATCH}).
     */
    private static Result measureRecords(long items) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        RecordItemPipeline pipeline = new RecordItemPipeline(WaitPolicy.YIELDING, PublishBatching.SHORT_TASKS, 64);
        try {
            long check = 0;
            int batch = PipelineThroughputBenchmark.BATCH;
            for (long i = 0; i < items / 4; i += batch) {
                check += pipeline.awaitRecords(batch);
            }
            Map<String, Long> before = cpuByName(threads);
            long start = System.nanoTime();
            for (long i = 0; i < items; i += batch) {
                check += pipeline.awaitRecords(batch);
            }
            long wall = System.nanoTime() - start;
            Map<String, Long> after = cpuByName(threads);
            if (check == Long.MIN_VALUE) { // keeps the results live; never true
                System.out.println(check);
            }
            return perItem(before, after, items, wall);
        } finally {
            pipeline.stop();
        }
    }

    /** Each pipeline thread's CPU nanoseconds per item between two readings, and every other thread's together. */
    private static Result perItem(Map<String, Long> before, Map<String, Long> after, long items, long wall) {
        Map<String, Double> perItem = new TreeMap<>();
        long other = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
            long used = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            if (PIPELINE_THREAD.matcher(e.getKey()).matches()) {
                perItem.put(e.getKey(), used / (double) items);
            } else if (used >= 1_000_000) {
                other += used;
            }
        }
        return new Result(items * 1e9 / wall, perItem, other / (double) items);
    }

    /** CPU time of every live thread by name (a name shared by several threads sums them). */
    private static Map<String, Long> cpuByName(ThreadMXBean threads) {
        Map<String, Long> byName = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            long nanos = threads.getThreadCpuTime(t.threadId());
            if (nanos > 0) {
                byName.merge(t.getName(), nanos, Long::sum);
            }
        }
        return byName;
    }
}
