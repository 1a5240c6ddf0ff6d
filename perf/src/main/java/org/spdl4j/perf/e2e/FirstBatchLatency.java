package org.spdl4j.perf.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.image.ImageBatchLoader;
import org.spdl4j.examples.image.ImageLoaderOptions;
import org.spdl4j.offheap.batch.Batch;

/**
 * Time from {@code Pipeline.start()} to the first batch of the image loader, for the first pipeline of a JVM (cold
 * JIT) and for the next ones. The loader is built (FFmpeg warmed up) before the clock starts, as a training job
 * builds its loader before its first step.
 *
 * <p>usage: {@code FirstBatchLatency IMAGE_DIR [RUNS]}
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
        FolderDataset dataset = FolderDataset.scan(Path.of(args[0]), Set.of("jpg", "jpeg", "png"));
        List<FileItem> files = new ArrayList<>();
        for (long i = 0; i < Math.min(256, dataset.size()); i++) {
            files.add(dataset.get(i));
        }
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        for (int r = 0; r < runs; r++) {
            try (ImageBatchLoader loader = ImageBatchLoader.of("first-batch", files, ImageLoaderOptions.defaults())) {
                Thread.sleep(200); // let construction's background work settle
                long t0 = System.nanoTime();
                loader.pipeline().start();
                Iterator<Batch> it = loader.iterator();
                Batch first = it.next();
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
