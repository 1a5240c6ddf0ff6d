package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.tune.ConcurrencyTuner;
import org.spdl4j.engine.tune.TuneListener;
import org.spdl4j.engine.tune.TunerSettings;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * Autotuning from a bad start (1 decode thread, 1 read in flight) over a folder of generated images reaches the
 * throughput of the best fixed configuration a sweep finds in the same run (within 10%), and never lets more decode
 * threads work than its CPU budget. The decoder burns a known CPU time per image (thread CPU time, so a loaded machine
 * changes the wall time but not the work), which keeps the figures steady where real JPEGs would be noisy.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AutotuneConvergenceTest {
    private static final long CPU_NANOS_PER_IMAGE = 2_000_000L;
    private static final int IMAGES = 64;
    private static final int BATCH = 8;
    private static final int ROUNDS = 6;

    /** Burns {@link #CPU_NANOS_PER_IMAGE} of this thread's CPU time per image; counts decodes running at once. */
    static final class BurningDecoder implements SlotDecoder {
        private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();

        @Override
        public DType dtype() {
            return DType.U8;
        }

        @Override
        public long[] sampleShape() {
            return new long[] {16};
        }

        @Override
        public void decode(EncodedSample sample, long destination, int length) {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                long until = CPU.getCurrentThreadCpuTime() + CPU_NANOS_PER_IMAGE;
                long x = sample.length();
                while (CPU.getCurrentThreadCpuTime() < until) {
                    for (int i = 0; i < 2_000; i++) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                    }
                }
                org.agrona.concurrent.UnsafeBuffer dst = new org.agrona.concurrent.UnsafeBuffer(destination, length);
                dst.setMemory(0, length, (byte) x);
            } finally {
                running.decrementAndGet();
            }
        }
    }

    private static Path images(Path dir) throws IOException {
        byte[] bytes = new byte[2_048];
        for (int i = 0; i < IMAGES; i++) {
            bytes[0] = (byte) i;
            Files.write(dir.resolve(String.format(Locale.ROOT, "img-%03d.jpg", i)), bytes);
        }
        return dir;
    }

    private static LoaderBuilder<Batch> loader(Path dir, SlotDecoder decoder, int reads, int decodes) {
        return Loader.builder().name("autotune").source(SampleSource.folder(dir)).decoder(decoder).batchSize(BATCH)
                .epochs(100_000).shuffle(false).readConcurrency(reads).decodeConcurrency(decodes);
    }

    /** Reads batches for {@code millis}: images per second. */
    private static double rate(Loader<Batch> loader, long millis) throws Exception {
        long images = 0;
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            try (LoadedBatch<Batch> b = loader.next(Duration.ofSeconds(10))) {
                images += b.size();
            }
        }
        return images * 1e9 / (System.nanoTime() - start);
    }

    private static double fixed(Path dir, int reads, int decodes) throws Exception {
        try (Loader<Batch> l = loader(dir, new BurningDecoder(), reads, decodes).build()) {
            rate(l, 300); // warm up
            return rate(l, 1_200);
        }
    }

    @Test
    void shouldReachTheBestFixedConfigurationFromOneThreadAndOneReadWithinItsCpuBudget(@TempDir Path tmp)
            throws Exception {
        Path dir = images(tmp);
        int budget = Math.min(4, Runtime.getRuntime().availableProcessors());
        // The sweep: every decode thread count within the budget, reads plentiful.
        int bestDecodes = 1;
        double best = 0;
        for (int d = 1; d <= budget; d++) {
            double r = fixed(dir, 8, d);
            if (r > best) {
                best = r;
                bestDecodes = d;
            }
        }
        // A shared machine's load can hit a whole attempt: a second one from the same bad start decides then. Every
        // attempt must respect the budget; the better of the two must reach 90% of the best fixed configuration.
        Attempt first = attempt(dir, bestDecodes, best, budget);
        Attempt result = first.ratio() >= 0.9 ? first : better(first, attempt(dir, bestDecodes, best, budget));
        assertThat(result.ratio()).as(first.report() + "\n" + result.report()).isGreaterThanOrEqualTo(0.9);
    }

    /** One autotuned run from the bad start, judged against the best fixed configuration, alternated. */
    record Attempt(double ratio, String report) {
    }

    private static Attempt better(Attempt a, Attempt b) {
        return a.ratio() >= b.ratio() ? a : b;
    }

    private Attempt attempt(Path dir, int bestDecodes, double best, int budget) throws Exception {
        BurningDecoder decoder = new BurningDecoder();
        List<String> changes = new CopyOnWriteArrayList<>();
        TunerSettings settings = TunerSettings.defaults().withCpuBudget(budget).withMemoryBudget(64L << 20)
                .withTick(Duration.ofMillis(150)).withWindowTicks(3).withTrialRounds(3);
        double tuned = 0;
        double reference = 0;
        double[] ratios = new double[ROUNDS];
        long settledAfter;
        int peak;
        String config;
        try (Loader<Batch> l = loader(dir, decoder, 1, 1).autotune(settings, new TuneListener() {
            @Override
            public void changed(String line) {
                changes.add(line);
            }
        }).build()) {
            ConcurrencyTuner tuner = l.tuner();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (tuner.settledAfterNanos() < 0 && System.nanoTime() < deadline) {
                rate(l, 100);
            }
            settledAfter = tuner.settledAfterNanos();
            // Steady state: the settled configuration against the best fixed one, alternated in short windows (the
            // loader not read meanwhile waits on its full sink), so a change of the machine's load hits both. The
            // tuner stops first: a paused consumer would only make it watch.
            tuner.close();
            peak = tuner.peakThreads();
            config = tuner.concurrency().toString();
            try (Loader<Batch> fixed = loader(dir, new BurningDecoder(), 8, bestDecodes).build()) {
                rate(fixed, 300); // warm up
                for (int round = 0; round < ROUNDS; round++) {
                    rate(l, 100); // what waited in the rings while the other ran
                    double t = rate(l, 400);
                    rate(fixed, 100);
                    double f = rate(fixed, 400);
                    ratios[round] = t / f;
                    tuned += t / ROUNDS;
                    reference += f / ROUNDS;
                }
            }
        }
        // The median of the rounds' ratios, as perf/alternate.py takes it: a burst of another process's load hits
        // one round, not the figure.
        java.util.Arrays.sort(ratios);
        double ratio = (ratios[ROUNDS / 2 - 1] + ratios[ROUNDS / 2]) / 2;
        String report = String.format(Locale.ROOT, "best fixed (sweep): decode %d at %.0f img/s; alternated: fixed "
                + "%.0f img/s, autotuned %s %.0f img/s (median ratio of %d rounds %.0f%%), settled after %d ms; changes:"
                + "%n  %s", bestDecodes, best, reference, config, tuned, ROUNDS, 100 * ratio, TimeUnit.NANOSECONDS.toMillis(settledAfter),
                String.join("\n  ", changes));
        System.out.println(report);
        assertThat(settledAfter).as(report).isGreaterThanOrEqualTo(0);
        assertThat(peak).as(report).isLessThanOrEqualTo(budget);
        assertThat(decoder.most.get()).as("decodes at once, " + report).isLessThanOrEqualTo(budget);
        if (bestDecodes > 1) {
            assertThat(changes).as(report).anyMatch(c -> c.startsWith("decode 1 -> 2"));
        }
        return new Attempt(ratio, report);
    }

    @Test
    void shouldCutAStartOverTheCpuBudgetBeforeTheFirstImage(@TempDir Path tmp) throws Exception {
        BurningDecoder decoder = new BurningDecoder();
        List<String> changes = new CopyOnWriteArrayList<>();
        try (Loader<Batch> l = loader(images(tmp), decoder, 1, 4).autotune(TunerSettings.defaults().withCpuBudget(2),
                new TuneListener() {
                    @Override
                    public void changed(String line) {
                        changes.add(line);
                    }
                }).build()) {
            assertThat(changes).containsExactly("decode 4 -> 2 threads: over the CPU budget of 2 threads");
            assertThat(l.tuner().concurrency()).containsEntry("decode", 2);
            rate(l, 500);
            assertThat(l.tuner().peakThreads()).isEqualTo(2);
        }
        assertThat(decoder.most.get()).as("decodes at once").isLessThanOrEqualTo(2);
    }
}
