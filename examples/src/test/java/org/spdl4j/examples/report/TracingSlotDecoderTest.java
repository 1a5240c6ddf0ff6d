package org.spdl4j.examples.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.batch.Batch;

/** Each decode of a loader through {@link TracingSlotDecoder} is one JFR task event and one Perfetto span. */
@Timeout(60)
class TracingSlotDecoderTest {
    @TempDir
    Path dir;

    @Test
    void shouldRecordOneJfrEventAndOneSpanPerDecodeOnTheDecodeThreads() throws Exception {
        SampleImages.generate(dir.resolve("img"), 12, 3);
        TaskTrace trace = new TaskTrace(100);
        Path jfr = dir.resolve("run.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("org.spdl4j.Task").withThreshold(java.time.Duration.ZERO);
            recording.start();
            try (Loader<Batch> loader = Loader.builder().name("jfr").source(SampleSource.folder(dir.resolve("img")))
                    .decoder(new TracingSlotDecoder(ImageSlotDecoder.evaluation(64, 56), trace)).batchSize(4)
                    .decodeConcurrency(2).build()) {
                for (LoadedBatch<Batch> b : loader) {
                    b.close();
                }
            }
            recording.stop();
            recording.dump(jfr);
        }
        Map<String, Integer> perStage = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("org.spdl4j.Task")) {
                perStage.merge(e.getString("stage"), 1, Integer::sum);
                assertThat(e.getThread().getJavaName()).startsWith("spdl4j-jfr-decode-");
            }
        }
        assertThat(perStage).containsExactly(Map.entry("decode", 12));

        trace.write(dir.resolve("trace.json"));
        long spans = 0;
        for (JsonNode e : new ObjectMapper().readTree(dir.resolve("trace.json").toFile()).get("traceEvents")) {
            spans += "decode".equals(e.get("name").asText()) && "X".equals(e.get("ph").asText()) ? 1 : 0;
        }
        assertThat(spans).isEqualTo(12);
    }
}
