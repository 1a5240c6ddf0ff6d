package org.spdl4j.loader;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.offheap.batch.Batch;

/**
 * One rank of a job in its own JVM for {@link RanksInProcessesTest}, as a launcher starts it: the rank from RANK and
 * WORLD_SIZE, the folder {@code -Drank.folder}; resumes from every file in {@code -Drank.resume} (the saved ranks'
 * states, path-separated) when given, stops after {@code -Drank.batches} batches, writes "epoch key" per delivered
 * sample to {@code -Drank.keys} and its state to {@code -Drank.state}.
 */
public final class RankChild {
    private RankChild() {
    }

    /**
     * Runs it.
     *
     * @param args unused
     * @throws Exception on any failure (the parent sees a non-zero exit and the output)
     */
    public static void main(String[] args) throws Exception {
        Path folder = Path.of(System.getProperty("rank.folder"));
        int maxBatches = Integer.getInteger("rank.batches", Integer.MAX_VALUE);
        LoaderBuilder<Batch> recipe = Loader.builder().source(SampleSource.folder(folder, java.util.Set.of("bin")))
            .decoder(new BytesDecoder()).batchSize(4).epochs(2).seed(11).rank(RankInfo.fromEnvironment());
        String resume = System.getProperty("rank.resume", "");
        if (!resume.isEmpty()) {
            List<LoaderState> saved = new ArrayList<>();
            for (String file : resume.split(File.pathSeparator)) {
                saved.add(LoaderState.parse(Files.readString(Path.of(file))));
            }
            recipe.resume(saved);
        }
        List<String> lines = new ArrayList<>();
        try (Loader<Batch> loader = recipe.build()) {
            int n = 0;
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        lines.add(batch.epoch(i) + " " + batch.key(i));
                    }
                }
                if (++n == maxBatches) {
                    break;
                }
            }
            Files.writeString(Path.of(System.getProperty("rank.state")), loader.state().encode());
        }
        Files.write(Path.of(System.getProperty("rank.keys")), lines);
    }
}
