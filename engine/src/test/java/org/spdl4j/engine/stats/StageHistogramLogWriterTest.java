package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StageHistogramLogWriterTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteALogThatHdrHistogramsReaderReadsBackWithTagsAndTotals() throws Exception {
        ManualClock clock = new ManualClock();
        StageStats decode = new StageStats("train", "decode", 2, () -> 0, 16);
        StageStats batch = new StageStats("train", "batch step", 1, () -> 0, 16);
        PipelineStats stats = new PipelineStats("train", List.of(decode, batch), clock);
        Path file = dir.resolve("train.hlog");
        StageHistogramLogWriter writer = StageHistogramLogWriter.open(stats, file);
        int intervals = 0;
        for (int round = 1; round <= 5; round++) {
            for (int i = 0; i < 100 * round; i++) {
                decode.worker(i % 2).onTask(50_000 + i);
            }
            batch.worker(0).onTask(2_000_000L * round);
            clock.advance(1_000_000_000L);
            stats.snapshot();
            intervals++;
        }
        decode.worker(0).onTask(7); // the tail: written by close()
        clock.advance(500_000_000L);
        writer.close();
        writer.close(); // idempotent

        Map<String, Long> totals = new HashMap<>();
        Map<String, Integer> counts = new HashMap<>();
        Map<String, Long> max = new HashMap<>();
        double lastStart = -1;
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                Histogram h = (Histogram) e;
                totals.merge(h.getTag(), h.getTotalCount(), Long::sum);
                counts.merge(h.getTag(), 1, Integer::sum);
                max.merge(h.getTag(), h.getMaxValue(), Math::max);
                assertThat(h.getStartTimeStamp() / 1000.0).isGreaterThanOrEqualTo(lastStart);
                lastStart = h.getStartTimeStamp() / 1000.0;
            }
        }
        assertThat(totals).containsOnlyKeys("train:decode", "train:batch_step");
        assertThat(totals.get("train:decode")).isEqualTo(decode.tasks()).isEqualTo(1_501);
        assertThat(totals.get("train:batch_step")).isEqualTo(batch.tasks()).isEqualTo(5);
        assertThat(counts.get("train:decode")).isEqualTo(intervals + 1);
        assertThat(max.get("train:batch_step")).isBetween(9_900_000L, 10_100_000L);
    }

    @Test
    void shouldStopWritingAfterClose() throws Exception {
        StageStats s = new StageStats("p", "map", 1, () -> 0, 0);
        PipelineStats stats = new PipelineStats("p", List.of(s));
        Path file = dir.resolve("p.hlog");
        StageHistogramLogWriter writer = StageHistogramLogWriter.open(stats, file);
        s.worker(0).onTask(10);
        writer.close();
        long size = java.nio.file.Files.size(file);
        s.worker(0).onTask(10);
        stats.snapshot();
        assertThat(java.nio.file.Files.size(file)).isEqualTo(size);
        assertThat(writer.path()).isEqualTo(file);
    }

    /** Reads every interval of the log back: tag to total count. */
    private static Map<String, Long> totalsByTag(Path file) throws Exception {
        Map<String, Long> totals = new HashMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                totals.merge(e.getTag(), ((Histogram) e).getTotalCount(), Long::sum);
            }
        }
        return totals;
    }

    @Test
    void shouldTagStagesWithNonAsciiNamesAsTheirTagSaysAndKeepEveryInterval() throws Exception {
        // Accented names must come back as written (not as '?', which would also merge these two stages), and a
        // Unicode line or paragraph separator (or NEL) must not end the reader's line part-way through a tag: the
        // reader would stop there and silently drop every later interval. The same in the pipeline's name, which the
        // log's header comment shows.
        String pipe = "p\u2028q";
        StageStats acute = new StageStats(pipe, "d\u00e9code", 1, () -> 0, 0);
        StageStats grave = new StageStats(pipe, "d\u00e8code", 1, () -> 0, 0);
        StageStats separators = new StageStats(pipe, "a\u2028b\u0085c\u2029d", 1, () -> 0, 0);
        StageStats last = new StageStats(pipe, "\u6279\u5904\u7406", 1, () -> 0, 0);
        List<StageStats> stages = List.of(acute, grave, separators, last);
        PipelineStats stats = new PipelineStats(pipe, stages);
        Path file = dir.resolve("unicode.hlog");
        StageHistogramLogWriter writer = StageHistogramLogWriter.open(stats, file);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < stages.size(); i++) {
                for (int k = 0; k <= i; k++) {
                    stages.get(i).worker(0).onTask(1_000);
                }
            }
            stats.snapshot();
        }
        writer.close();

        Map<String, Long> totals = totalsByTag(file);
        assertThat(totals).hasSize(4);
        for (int i = 0; i < stages.size(); i++) {
            assertThat(totals.get(stages.get(i).tag())).as(stages.get(i).tag()).isEqualTo(3L * (i + 1));
        }
    }

    @Test
    void shouldCloseTheFileWithWhatWasWrittenWhenTheStatsWereDetachedFirst() throws Exception {
        StageStats s = new StageStats("p", "map", 1, () -> 0, 0);
        PipelineStats stats = new PipelineStats("p", List.of(s));
        Path file = dir.resolve("detached.hlog");
        StageHistogramLogWriter writer = StageHistogramLogWriter.open(stats, file);
        s.worker(0).onTask(1_000);
        stats.snapshot();
        stats.detach();
        assertThatThrownBy(writer::close).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("detached");
        writer.close(); // closed all the same: idempotent from here
        assertThat(totalsByTag(file)).as("flushed and closed despite the failed tail sample")
                .containsExactly(Map.entry("p:map", 1L));
    }
}
