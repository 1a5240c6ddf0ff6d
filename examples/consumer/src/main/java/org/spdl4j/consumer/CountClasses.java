package org.spdl4j.consumer;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.batch.Batch;

/**
 * What a library user writes: loads a dataset (a folder of images or WebDataset tar shards) as 224 x 224 RGB batches
 * of 32 and counts the samples of each label. Uses only the exported API of the library artifacts.
 */
public final class CountClasses {
    private CountClasses() {
    }

    /**
     * Counts the samples of each label in one epoch.
     *
     * @param source the samples
     * @return samples per label
     */
    public static Map<Integer, Integer> count(SampleSource source) {
        Map<Integer, Integer> perLabel = new TreeMap<>();
        try (Loader<Batch> loader = Loader.builder().source(source)
                .decoder(ImageSlotDecoder.evaluation(256, 224)).batchSize(32).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        perLabel.merge(batch.label(i), 1, Integer::sum);
                    }
                }
            }
        }
        return perLabel;
    }

    /**
     * Prints the counts of a folder or of tar shards.
     *
     * @param args a folder, or a {@code .tar} shard or a folder of them
     */
    public static void main(String[] args) {
        Path data = Path.of(args[0]);
        SampleSource source = SampleSource.shardFiles(data).isEmpty() ? SampleSource.folder(data)
            : SampleSource.tarShards(data);
        System.out.println(source.describe() + ": " + count(source));
    }
}
