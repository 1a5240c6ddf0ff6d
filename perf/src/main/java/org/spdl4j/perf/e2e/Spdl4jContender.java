package org.spdl4j.perf.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleEntry;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.batch.Batch;

/**
 * spdl4j's {@link Loader} (what {@code spdl4j run} runs) with {@code threads} decode threads and 4 reads in flight per
 * thread, over the files in the given order, decoding each to {@link ImageWork}'s output.
 */
public final class Spdl4jContender implements Contender {
    /** Creates the contender. */
    public Spdl4jContender() {
    }

    @Override
    public String name() {
        return "spdl4j";
    }

    @Override
    public void run(List<Path> files, int threads, BatchConsumer consumer) {
        List<SampleEntry> samples = new ArrayList<>(files.size());
        for (Path f : files) {
            samples.add(SampleEntry.file(f, SampleEntry.NO_LABEL));
        }
        try (Loader<Batch> loader = Loader.builder().name("e2e").source(SampleSource.of(samples))
                .decoder(ImageSlotDecoder.evaluation(ImageWork.SHORT_SIDE, ImageWork.CROP)).shuffle(false)
                .batchSize(ImageWork.BATCH).decodeConcurrency(threads).readConcurrency(4 * threads).build()) {
            for (LoadedBatch<Batch> b : loader) {
                consumer.accept(b.size());
                b.close();
            }
        }
    }
}
