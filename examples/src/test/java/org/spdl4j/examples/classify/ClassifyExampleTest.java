package org.spdl4j.examples.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.examples.training.ColorClassImages;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.batch.Batch;

@Timeout(60)
class ClassifyExampleTest {
    @TempDir
    Path dir;

    @Test
    void shouldLoadEveryShardSampleWithItsLabel() throws Exception {
        FolderDataset dataset = FolderDataset.scan(ColorClassImages.generate(dir.resolve("img"), 6, 40, 5),
            Set.of("jpg"));
        List<Path> shards = TarShardWriter.write(dataset, dir.resolve("tar"), 10); // 24 samples: 3 shards
        assertThat(shards).hasSize(3);
        List<Integer> labels = new ArrayList<>();
        try (Loader<Batch> loader = Loader.builder().name("shards-test").source(SampleSource.tarShards(shards))
                .decoder(ImageSlotDecoder.evaluation(36, 32)).batchSize(8).decodeConcurrency(2).build()) {
            for (LoadedBatch<Batch> b : loader) {
                try (b) {
                    assertThat(b.data().descriptor().sampleBytes()).isEqualTo(32 * 32 * 3);
                    for (int i = 0; i < b.size(); i++) {
                        String key = b.key(i); // <shard>@<sample index, as TarShardWriter numbers them>
                        int expected = dataset.get(Long.parseLong(key.substring(key.indexOf('@') + 1))).label();
                        assertThat(b.label(i)).as(key).isEqualTo(expected);
                        labels.add(b.label(i));
                    }
                }
            }
            assertThat(loader.failures()).isZero();
        }
        assertThat(labels).hasSize(24).containsOnly(0, 1, 2, 3);
    }

    @Test
    void shouldClassifyGeneratedColoursFromAFolderWellAboveChance() throws Exception {
        Path data = ColorClassImages.generate(dir.resolve("img"), 12, 40, 6);
        ClassifyExample example = new ClassifyExample();
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(example, new PrintWriter(out), new PrintWriter(out), "--data",
            data.toString(), "--size", "32", "--batch", "8");
        assertThat(code).as(out.toString()).isZero();
        assertThat(example.images()).isEqualTo(48);
        assertThat(example.accuracy()).as(out.toString()).isGreaterThan(0.6);
        assertThat(out.toString()).contains("online nearest-centroid accuracy").contains("decode");
    }

    @Test
    void shouldClassifyTheSameImagesPackedIntoShards() throws Exception {
        Path data = ColorClassImages.generate(dir.resolve("img"), 12, 40, 6);
        ClassifyExample example = new ClassifyExample();
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(example, new PrintWriter(out), new PrintWriter(out), "--data",
            data.toString(), "--format", "shards", "--size", "32", "--batch", "8");
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("packed 48 images into 1 shards");
        assertThat(example.images()).isEqualTo(48);
        assertThat(example.accuracy()).as(out.toString()).isGreaterThan(0.6);
    }
}
