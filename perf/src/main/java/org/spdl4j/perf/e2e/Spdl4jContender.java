package org.spdl4j.perf.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.examples.image.ImageBatchLoader;
import org.spdl4j.examples.image.ImageLoaderOptions;
import org.spdl4j.offheap.batch.Batch;

/** spdl4j's image loader (the one {@code spdl4j run} runs), with {@code threads} decode threads. */
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
        List<FileItem> items = new ArrayList<>(files.size());
        for (Path f : files) {
            items.add(new FileItem(f, f.getFileName().toString(), 0));
        }
        ImageLoaderOptions options = ImageLoaderOptions.defaults().withDecodeConcurrency(threads)
            .withReadConcurrency(4 * threads);
        try (ImageBatchLoader loader = ImageBatchLoader.of("e2e", items, options)) {
            for (Batch b : loader) {
                consumer.accept(b.size());
                b.close();
            }
        }
    }
}
