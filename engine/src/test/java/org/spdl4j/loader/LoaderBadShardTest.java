package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.batch.Batch;

/** One truncated tar shard among four costs the rest of that shard, counted on the source, not the run. */
class LoaderBadShardTest {
    @TempDir
    Path dir;

    @Test
    void shouldSkipTheRestOfATruncatedShardAndReadTheOthers() throws Exception {
        List<Path> shards = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            TestTarWriter tar = new TestTarWriter();
            for (int i = 0; i < 10; i++) {
                tar.add("s" + s + "-" + i + ".bin", ("id:s" + s + "-" + i + "-" + "x".repeat(600))
                    .getBytes(StandardCharsets.US_ASCII));
            }
            byte[] bytes = tar.finish();
            if (s == 1) {
                bytes = Arrays.copyOf(bytes, bytes.length / 2); // cut in the middle of a member
            }
            Path shard = dir.resolve("shard-" + s + ".tar");
            Files.write(shard, bytes);
            shards.add(shard);
        }
        List<String> keys = new ArrayList<>();
        long sourceFailures;
        try (Loader<Batch> loader = Loader.builder().source(SampleSource.tarShards(shards)).shuffle(false)
                .decoder(new BytesDecoder()).batchSize(4).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.add(batch.key(i));
                    }
                }
            }
            sourceFailures = loader.stats().get(0).failures();
            assertThat(loader.stats().get(0).firstFailure()).hasMessageContaining("shard-1.tar");
        }
        assertThat(keys.stream().filter(k -> k.contains("shard-0") || k.contains("shard-2") || k.contains("shard-3")))
            .hasSize(30);
        long fromBad = keys.stream().filter(k -> k.contains("shard-1.tar")).count();
        assertThat(fromBad).as("the samples of the cut shard before the cut").isBetween(1L, 9L);
        assertThat(sourceFailures).isEqualTo(1);
    }
}
