package org.spdl4j.perf.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleEntry;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.batch.Batch;

/**
 * Time from {@code Pipeline.start()} to the first batch of the image {@link Loader}, for the first loader of a JVM
 * (cold JIT) and for the next ones. The loader is built (FFmpeg warmed up) before the clock starts, as a training job
 * builds its loader before its first step.
 *
 * <p>usage: {@code FirstBatchLatency IMAGE_DIR [RUNS]} (a folder of class sub-folders of images; the first 256 load)
 */
public final class FirstBatchLatency {
    private FirstBatchLatency() {
    }

    /**
     * Entry point.
     *
     * @param args image folder, optional number of runs (default 5)
     * @throws Exception when loading fails
     */
    public static void main(String[] args) throws Exception {
        FolderDataset dataset = FolderDataset.scan(Path.of(args[0]), SampleSource.IMAGE_EXTENSIONS);
        List<SampleEntry> files = new ArrayList<>();
        for (long i = 0; i < Math.min(256, dataset.size()); i++) {
            FileItem f = dataset.get(i);
            files.add(SampleEntry.file(f.path(), f.label()));
        }
        SampleSource images = SampleSource.of(files);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        for (int r = 0; r < runs; r++) {
            try (Loader<Batch> loader = Loader.builder().name("first-batch").source(images)
                    .decoder(ImageSlotDecoder.evaluation(ImageWork.SHORT_SIDE, ImageWork.CROP))
                    .batchSize(ImageWork.BATCH).build()) {
                Thread.sleep(200); // let construction's background work settle
                long t0 = System.nanoTime();
                loader.pipeline().start();
                Iterator<LoadedBatch<Batch>> it = loader.iterator();
                LoadedBatch<Batch> first = it.next();
                long t1 = System.nanoTime();
                System.out.printf(Locale.ROOT, "run %d: first batch %.1f ms after start%n", r, (t1 - t0) / 1e6);
                first.close();
                while (it.hasNext()) {
                    it.next().close();
                }
            }
        }
    }
}
