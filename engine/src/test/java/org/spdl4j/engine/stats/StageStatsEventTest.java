package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class StageStatsEventTest {
    @TempDir
    Path dir;

    @Test
    void shouldRecordOneJfrEventPerStageWithItsFigures() throws Exception {
        StageStats read = new StageStats("jfr", "read", 1, () -> 0, 0);
        StageStats decode = new StageStats("jfr", "decode", 2, () -> 5, 8);
        PipelineStats stats = new PipelineStats("jfr", List.of(read, decode));
        for (int i = 0; i < 42; i++) {
            decode.worker(i % 2).onItemIn();
            decode.worker(i % 2).onTask(3_000);
        }
        Path file = dir.resolve("stats.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("org.spdl4j.StageStats");
            recording.start();
            StageStatsEvent.emit(stats.snapshot());
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("org.spdl4j.StageStats")).toList();
        assertThat(events).extracting(e -> e.getString("stage")).containsExactly("read", "decode");
        RecordedEvent d = events.get(1);
        assertThat(d.getString("pipeline")).isEqualTo("jfr");
        assertThat(d.getLong("itemsIn")).isEqualTo(42);
        assertThat(d.getLong("tasks")).isEqualTo(42);
        assertThat(d.getLong("taskP50")).isBetween(2_900L, 3_100L);
        assertThat(d.getLong("ringOccupancy")).isEqualTo(5);
    }
}
