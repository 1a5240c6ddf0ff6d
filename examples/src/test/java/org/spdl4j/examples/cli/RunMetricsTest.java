package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.spdl4j.engine.stats.ProcessMetrics;

/** The run summary's figures. */
class RunMetricsTest {
    private static final Pattern PEAK = Pattern.compile("peak RSS (\\d+) MiB");

    /**
     * Memory touched and freed before the run (as generating the built-in sample does on first use) is not the run's
     * peak RSS: building the loader resets the high-water mark.
     */
    @Test
    void shouldReportTheRunsOwnPeakRssNotThePeakOfWhatRanBeforeIt() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/status"))
            && Files.isWritable(Path.of("/proc/self/clear_refs")), "Linux /proc with a writable clear_refs");
        long bytes = 256L << 20;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment before = arena.allocate(bytes);
            for (long i = 0; i < bytes; i += 4096) {
                before.set(ValueLayout.JAVA_BYTE, i, (byte) 1); // resident now
            }
        } // and given back to the OS
        double peakBefore = ProcessMetrics.peakRssMiB();
        assertThat(peakBefore - ProcessMetrics.rssMiB()).as("the touched memory was given back").isGreaterThan(200);

        RunMetrics metrics = new RunMetrics();
        metrics.building();
        metrics.start();
        metrics.firstBatch();
        metrics.end(1, 1);
        String summary = metrics.describe(0);
        Matcher m = PEAK.matcher(summary);
        assertThat(m.find()).as(summary).isTrue();
        assertThat(Double.parseDouble(m.group(1))).as(summary).isLessThan(peakBefore - 200);
        assertThat(summary).doesNotContain("since the JVM started");
    }

    /**
     * The first batch is timed from the pipeline's start and, as a training loop waits for it, from when the loader
     * started being built.
     */
    @Test
    void shouldTimeTheFirstBatchFromTheStartAndFromTheLoadersConstruction() {
        long[] now = {0};
        RunMetrics metrics = new RunMetrics(() -> now[0]);
        metrics.building();
        now[0] = 400_000_000L; // built after 0.4 s
        metrics.start();
        now[0] = 600_000_000L;
        metrics.firstBatch();
        now[0] = 1_400_000_000L;
        metrics.end(64, 2);
        assertThat(metrics.describe(0)).contains("64 images in 2 batches, 1.00 s, 64.0 img/s; first batch after 0.200 s"
            + " (0.600 s counting the loader's construction);");
    }

    @Test
    void shouldTimeTheFirstBatchFromTheProcessStart() throws Exception {
        double jvmUptime = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0;
        double age = RunMetrics.processAgeSeconds();
        // The process starts a little before the JVM's own clock does; a start time off by the boot time's rounding
        // (up to a second) would fall outside.
        assertThat(age).as("process age against the JVM's uptime %.3f s", jvmUptime)
            .isBetween(jvmUptime - 0.05, jvmUptime + 0.5);
        RunMetrics metrics = new RunMetrics();
        metrics.building();
        metrics.start();
        Thread.sleep(30);
        metrics.firstBatch();
        metrics.end(1, 1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
            "start-up: first batch (\\d+\\.\\d+) s after the process started \\((\\d+\\.\\d+) s of it before")
            .matcher(metrics.describe(0));
        assertThat(m.find()).as(metrics.describe(0)).isTrue();
        double first = Double.parseDouble(m.group(1));
        double before = Double.parseDouble(m.group(2));
        assertThat(before).isGreaterThanOrEqualTo(age - 0.02);
        assertThat(first - before).as("the 30 ms wait, to the kernel's 10 ms").isBetween(0.01, 5.0);
    }
}
