package org.spdl4j.examples.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.testing.RingFill;
import org.spdl4j.examples.training.ColorClassImages;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.batch.Batch;

/**
 * A consumer that stops early while the shard reader has filled the rings with samples whose bytes sit in pooled
 * leases: closing the loader gives every lease back (the items still in the source's ring go through the loader's
 * discard hook), so the sample pool is empty before it is freed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShardLoaderEarlyCloseTest {
    @TempDir
    static Path dir;

    @ParameterizedTest(name = "close after {0} batches")
    @ValueSource(ints = {1, 3})
    void shouldGiveBackEverySampleLeaseWhenTheConsumerStopsEarly(int batchesTaken) throws Exception {
        Path root = dir.resolve("run-" + batchesTaken);
        FolderDataset dataset = FolderDataset.scan(ColorClassImages.generate(root.resolve("img"), 40, 32, 4),
            Set.of("jpg"));
        List<Path> shards = TarShardWriter.write(dataset, root.resolve("tar"), 40); // 160 samples: 4 shards
        String name = "shard-early-" + batchesTaken;
        ShardImageLoader loader = new ShardImageLoader(name, shards, 32, 36, 4, 1);
        try {
            Iterator<Batch> batches = loader.iterator(); // starts the pipeline
            for (int i = 0; i < batchesTaken; i++) {
                assertThat(batches.hasNext()).isTrue();
                try (Batch b = batches.next()) {
                    assertThat(b.size()).isEqualTo(4);
                }
            }
            // the source thread reads ahead: wait until samples (each holding a lease) wait in the rings, so that
            // the close-time sweep has leased samples to hand to the discard hook (a fixed sleep may see none)
            RingFill.awaitItemsInRings(loader.pipeline(), 2);
            assertThat(loader.leasesInUse()).as("samples read ahead").isPositive();
        } finally {
            loader.close();
        }
        assertThat(loader.leasesInUse()).as("sample leases still out after close").isZero();
        assertThat(PoolRegistry.livePools().stream().map(BufferPool::name).filter(n -> n.startsWith(name)).toList())
            .as("pools whose memory is still allocated: a lease was not returned").isEmpty();
    }
}
