package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.offheap.batch.Batch;

@Timeout(60)
class JfrTaskEventsTest {
    @TempDir
    Path dir;

    @Test
    void shouldRecordOneJfrTaskEventPerImageAndStage() throws Exception {
        SampleImages.generate(dir.resolve("img"), 12, 3);
        FolderDataset ds = FolderDataset.scan(dir.resolve("img"), Set.of("jpg"));
        List<FileItem> files = new ArrayList<>();
        for (long i = 0; i < ds.size(); i++) {
            files.add(ds.get(i));
        }
        Path jfr = dir.resolve("run.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("org.spdl4j.Task").withThreshold(java.time.Duration.ZERO);
            recording.start();
            try (ImageBatchLoader loader = ImageBatchLoader.of("jfr", files,
                    ImageLoaderOptions.defaults().withBatchSize(4))) {
                for (Batch b : loader) {
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
                if (e.getString("stage").equals("decode")) {
                    assertThat(e.getThread().getJavaName()).startsWith("spdl4j-jfr-decode-");
                }
            }
        }
        assertThat(perStage).containsEntry("read", 12).containsEntry("decode", 12);
    }
}
