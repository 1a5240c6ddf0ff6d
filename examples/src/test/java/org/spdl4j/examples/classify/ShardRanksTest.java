package org.spdl4j.examples.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.examples.training.ColorClassImages;
import org.spdl4j.offheap.batch.Batch;

/** Two ranks over the same tar shards read disjoint shares that together are the whole dataset. */
class ShardRanksTest {
    @TempDir
    Path dir;

    @Test
    void shouldSplitTheShardsBetweenRanks() throws Exception {
        FolderDataset dataset = FolderDataset.scan(ColorClassImages.generate(dir.resolve("img"), 8, 32, 4),
            Set.of("jpg"));
        List<Path> shards = TarShardWriter.write(dataset, dir.resolve("tar"), 8); // 32 samples: 4 shards
        // Shards of 8 in dataset order hold one class each (classes are folders, scanned in order), and a rank takes
        // whole shards: its labels name which shards it read.
        List<List<Integer>> seen = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            List<Integer> mine = new ArrayList<>();
            try (ShardImageLoader loader = new ShardImageLoader("ranks-" + rank, shards, 32, 36, 4,
                    SlotLoaderOptions.defaults().withFillConcurrency(1), new RankInfo(rank, 2))) {
                for (Batch b : loader) {
                    try (b) {
                        for (int i = 0; i < b.size(); i++) {
                            mine.add(loader.label(b, i));
                        }
                    }
                }
            }
            seen.add(mine);
        }
        assertThat(seen.get(0)).as("rank 0").hasSize(16).doesNotContainAnyElementsOf(seen.get(1));
        assertThat(seen.get(1)).as("rank 1").hasSize(16);
        Set<Integer> classes = new HashSet<>(seen.get(0));
        classes.addAll(seen.get(1));
        assertThat(classes).containsExactlyInAnyOrder(0, 1, 2, 3);
    }
}
