package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.offheap.batch.Batch;

/** Text members of tar samples (captions, metadata) delivered with their batch, for image-text training. */
class LoaderTextFieldsTest {
    @Test
    void shouldDeliverEachSamplesCaptionAndMetadataWithItsBatch(@TempDir Path dir) throws Exception {
        TestTarWriter tar = new TestTarWriter();
        for (int i = 0; i < 10; i++) {
            String key = "p" + i;
            tar.add(key + ".bin", ("id:" + key).getBytes(StandardCharsets.UTF_8))
                .add(key + ".txt", ("a photo of thing " + i + " \u00e9t\u00e9\n").getBytes(StandardCharsets.UTF_8));
            if (i % 2 == 0) {
                tar.add(key + ".json", ("{\"i\": " + i + "}").getBytes(StandardCharsets.UTF_8));
            }
        }
        Path shard = dir.resolve("captions.tar");
        Files.write(shard, tar.finish());
        Map<String, String> captions = new HashMap<>();
        Map<String, String> metadata = new HashMap<>();
        try (Loader<Batch> loader = Loader.builder().name("captions").source(SampleSource.tarShards(shard))
                .decoder(new BytesDecoder()).batchSize(4).textFields("txt", "json").order(OutputOrder.COMPLETION)
                .build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        String member = batch.key(i).substring(batch.key(i).indexOf('@') + 1);
                        captions.put(member, batch.text(i, "txt"));
                        metadata.put(member, batch.text(i, "json"));
                    }
                    assertThatThrownBy(() -> batch.text(0, "cls")).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("[txt, json]");
                }
            }
        }
        assertThat(captions).hasSize(10);
        for (int i = 0; i < 10; i++) {
            assertThat(captions.get("p" + i)).isEqualTo("a photo of thing " + i + " \u00e9t\u00e9");
            assertThat(metadata.get("p" + i)).isEqualTo(i % 2 == 0 ? "{\"i\": " + i + "}" : null);
        }
    }

    @Test
    void shouldSayWhenNoTextIsDelivered(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.bin"), "id:a");
        try (Loader<Batch> loader = Loader.builder().name("plain").source(SampleSource.folder(dir,
                java.util.Set.of("bin"))).decoder(new BytesDecoder()).build()) {
            try (LoadedBatch<Batch> batch = loader.iterator().next()) {
                assertThatThrownBy(() -> batch.text(0, "txt")).hasMessageContaining("LoaderBuilder.textFields");
            }
        }
        assertThatThrownBy(() -> Loader.builder().textFields("txt", "txt")).hasMessageContaining("distinct");
    }
}
