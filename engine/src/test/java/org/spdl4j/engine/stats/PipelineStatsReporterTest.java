package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class PipelineStatsReporterTest {
    private final StageStats read = new StageStats("imgs", "read", 2, () -> 3, 8);
    private final StageStats decode = new StageStats("imgs", "decode", 4, () -> 1, 8);
    private final PipelineStats stats = new PipelineStats("imgs", List.of(read, decode));

    private static boolean threadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    @Test
    void shouldReportATableWithEveryStageOnANamedDaemonThreadUntilClosed() throws Exception {
        List<String> tables = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        PipelineStatsReporter reporter = PipelineStatsReporter.start(stats, Duration.ofMillis(20), s -> {
            threads.add(Thread.currentThread().getName() + (Thread.currentThread().isDaemon() ? "/daemon" : ""));
            tables.add(StatsTable.render(s));
        });
        for (int i = 0; i < 100; i++) {
            read.worker(0).onItemOut();
            decode.worker(1).onTask(1_000);
        }
        while (tables.size() < 3) {
            Thread.sleep(5);
        }
        assertThat(threadAlive("spdl4j-imgs-reporter")).isTrue();
        reporter.close();
        int afterClose = tables.size();
        assertThat(threadAlive("spdl4j-imgs-reporter")).isFalse();
        assertThat(threads).allMatch(n -> n.equals("spdl4j-imgs-reporter/daemon"));
        assertThat(tables).allSatisfy(t -> assertThat(t).contains("read").contains("decode").contains("3/8"));
        assertThat(reporter.lastSnapshot().stage("decode").tasks()).isEqualTo(100);
        Thread.sleep(60);
        assertThat(tables).hasSize(afterClose);
        reporter.close(); // idempotent
    }

    @Test
    void shouldReportOnceMoreOnCloseSoTheTailIsNotLost() {
        List<PipelineSnapshot> seen = new CopyOnWriteArrayList<>();
        PipelineStatsReporter reporter = PipelineStatsReporter.start(stats, Duration.ofHours(1), seen::add);
        decode.worker(0).onTask(5);
        reporter.close();
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).stage("decode").tasks()).isEqualTo(1);
    }

    @Test
    void shouldKeepReportingWhenTheSinkThrows() throws Exception {
        List<PipelineSnapshot> seen = new CopyOnWriteArrayList<>();
        try (PipelineStatsReporter reporter = PipelineStatsReporter.start(stats, Duration.ofMillis(10), s -> {
            seen.add(s);
            throw new IllegalStateException("sink failed on purpose");
        })) {
            while (seen.size() < 3) {
                Thread.sleep(5);
            }
            assertThat(reporter.threadName()).isEqualTo("spdl4j-imgs-reporter");
        }
    }

    @Test
    void shouldStartAndStopWithTheDefaultLoggingSink() {
        try (PipelineStatsReporter reporter = PipelineStatsReporter.start(stats, Duration.ofMillis(5))) {
            decode.worker(0).onTask(5);
            assertThat(reporter.threadName()).isEqualTo("spdl4j-imgs-reporter");
        }
        assertThat(threadAlive("spdl4j-imgs-reporter")).isFalse();
    }

    @Test
    void shouldClearAnInterruptAndKeepReportingAtItsPeriod() throws Exception {
        AtomicInteger reports = new AtomicInteger();
        try (PipelineStatsReporter reporter = PipelineStatsReporter.start(stats, Duration.ofMillis(50),
                s -> reports.incrementAndGet())) {
            Thread thread = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals(reporter.threadName())).findFirst().orElseThrow();
            thread.interrupt();
            // Left set, the flag makes every park return at once: the thread spins until close.
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (thread.isInterrupted() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(thread.isInterrupted()).as("the reporter cleared the interrupt").isFalse();
            int before = reports.get();
            long start = System.nanoTime();
            while (reports.get() < before + 3 && System.nanoTime() - start < 5_000_000_000L) {
                Thread.sleep(5);
            }
            Thread.sleep(200);
            int after = reports.get();
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(after - before).as("reports in %d ms at a 50 ms period", elapsedMillis)
                    .isGreaterThanOrEqualTo(3).isLessThanOrEqualTo((int) (elapsedMillis / 50) + 2);
            assertThat(thread.isAlive()).as("an interrupt does not end the reporter; close does").isTrue();
        }
        assertThat(threadAlive("spdl4j-imgs-reporter")).isFalse();
    }

    @Test
    void shouldRejectANonPositiveInterval() {
        assertThatThrownBy(() -> PipelineStatsReporter.start(stats, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("imgs");
    }
}
