package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTableTest {

    private static StageSnapshot stage(String name, double busy, double starved, double bp, boolean bottleneck) {
        return new StageSnapshot(name, 2, 1_000, 990, 10, 1_000, 1_500, 12_345, 4_560_000, 2_000_000_000L,
                123.4, busy, starved, bp, 5, name.equals("source") ? 0 : 64, bottleneck);
    }

    @Test
    void shouldRenderOneAlignedRowPerStageAndMarkTheBottleneck() {
        PipelineSnapshot snap = new PipelineSnapshot("train", 0, 12_000_000_000L, 2_000_000_000L, 5012.3,
                List.of(stage("source", 5, 0, 90, false), stage("decode-and-resize", 99, 0, 0, true),
                        stage("batch", 4, 95, 0, false)), false);
        String table = StatsTable.render(snap);
        List<String> lines = table.lines().toList();
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).contains("train", "12.0 s", "5012/s out of the last stage");
        assertThat(lines.get(1)).startsWith("stage").contains("p99", "starved%", "ring");
        assertThat(lines.get(2)).startsWith("source ").endsWith("-");
        assertThat(lines.get(3)).startsWith("decode-and-resize").contains("1.5us", "12.3us", "4.56ms", "2.00s", "5/64")
                .endsWith("<- bottleneck");
        assertThat(lines.get(4)).startsWith("batch ").doesNotContain("bottleneck");
        assertThat(lines.get(5)).isEqualTo("bottleneck: decode-and-resize (99.0% busy; batch waits for it 95.0% of"
                + " its time; add workers or make its task cheaper)");
        // aligned: the ring column ends at the same position on every row
        int end = lines.get(1).length();
        assertThat(lines.get(2)).hasSize(end);
        assertThat(lines.get(3).substring(0, end)).endsWith("5/64");
        assertThat(lines.get(4)).hasSize(end);
    }

    @Test
    void shouldBlameTheConsumerAndClampShares() {
        PipelineSnapshot snap = new PipelineSnapshot("p", 0, 1, 1, 0,
                List.of(stage("source", 0, 0, 99, false), stage("map", 130, 0, 80, false)), true);
        String table = StatsTable.render(snap);
        assertThat(table).contains("100.0").doesNotContain("130.0").doesNotContain("<- bottleneck");
        assertThat(StatsTable.verdict(snap)).isEqualTo("bottleneck: the consumer (stage map is blocked on its output"
                + " 80.0% of its time; the pipeline keeps up)");
    }

    @Test
    void shouldShowNoTaskTimesForAStageThatTimedNoTask() {
        StageSnapshot sink = new StageSnapshot("sink", 1, 10, 10, 0, 0, 0, 0, 0, 0, 5, 0, 90, 0, 3, 16, false);
        PipelineSnapshot snap = new PipelineSnapshot("p", 0, 1, 1, 0, List.of(sink), false);
        String row = StatsTable.render(snap).lines().toList().get(2);
        assertThat(row.split(" +")).containsSubsequence("sink", "1", "10", "10", "0", "5", "-", "-", "-", "-", "0.0",
                "90.0", "0.0", "3/16");
    }

    @Test
    void shouldFormatDurationsCompactly() {
        assertThat(StatsTable.nanos(999)).isEqualTo("999ns");
        assertThat(StatsTable.nanos(1_000)).isEqualTo("1.0us");
        assertThat(StatsTable.nanos(2_500_000)).isEqualTo("2.50ms");
        assertThat(StatsTable.nanos(61_000_000_000L)).isEqualTo("61.00s");
    }
}
