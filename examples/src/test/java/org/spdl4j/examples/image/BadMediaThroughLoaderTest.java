package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.media.MediaException;
import org.spdl4j.offheap.batch.Batch;

/**
 * Broken images in the middle of an epoch: each fails alone with a {@link MediaException} naming its file, the epoch
 * runs to its end, every good image is delivered exactly once, and the loader counts the failures.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BadMediaThroughLoaderTest {
    private static final ImageLoaderOptions OPTIONS = new ImageLoaderOptions(64, 72, 8, false, 4, 2,
            OutputOrder.INPUT, org.spdl4j.engine.WaitPolicy.BACKOFF, 4, 4);

    @TempDir
    Path dir;

    @Test
    void shouldDeliverEveryGoodImageAndNameEachBadOneWhileTheEpochGoesOn() throws Exception {
        List<FileItem> good = LoaderTestFiles.good(dir.resolve("good"), 24);
        List<LoaderTestFiles.Bad> bad = LoaderTestFiles.bad(dir, good.get(0).path());
        Path png = LoaderTestFiles.pngNamedJpeg(dir);
        // interleave: good, bad, good, bad, ... then the rest; labels: goods 0..23, the png 24, bad ones -1
        List<FileItem> epoch = new ArrayList<>();
        for (int i = 0; i < good.size(); i++) {
            epoch.add(good.get(i));
            if (i < bad.size()) {
                epoch.add(new FileItem(bad.get(i).path(), bad.get(i).path().getFileName().toString(), -1));
            }
        }
        epoch.add(new FileItem(png, "really-a-png.jpg", good.size()));

        Set<Integer> delivered = new HashSet<>();
        List<Integer> duplicates = new ArrayList<>();
        Set<String> failedInBatches = new HashSet<>();
        try (ImageBatchLoader loader = ImageBatchLoader.of("bad-media", epoch, OPTIONS)) {
            for (Batch batch : loader) {
                try {
                    for (int i = 0; i < batch.size(); i++) {
                        int label = loader.label(batch, i);
                        if (!delivered.add(label)) {
                            duplicates.add(label);
                        }
                    }
                    for (int k = 0; k < batch.failedCount(); k++) {
                        assertThat(batch.failure(k)).isInstanceOf(MediaException.class);
                        MediaException e = (MediaException) batch.failure(k);
                        assertThat(e.getMessage()).startsWith(e.input() + ": ");
                        failedInBatches.add(Path.of(e.input()).getFileName().toString());
                    }
                } finally {
                    batch.close();
                }
            }
            assertThat(loader.pipeline().isEnded()).as("the epoch ran to its end").isTrue();
            assertThat(loader.failedImages()).isEqualTo(bad.size());
            assertThat(loader.decodeFailures()).isEqualTo(bad.stream().filter(b -> !b.rejectedByRead()).count());
            Throwable first = loader.firstFailure();
            assertThat(first).as("the first failure is kept").isNotNull();
            assertThat(bad).as(first.getMessage()).anyMatch(b -> first.getMessage().contains(b.path().toString()));
        }
        assertThat(duplicates).isEmpty();
        assertThat(delivered).hasSize(good.size() + 1).doesNotContain(-1);
        assertThat(failedInBatches).containsExactlyInAnyOrderElementsOf(bad.stream()
                .filter(b -> !b.rejectedByRead()).map(b -> b.path().getFileName().toString()).toList());
    }

    @Test
    void shouldNameTheFileInTheReadStageRejection() throws Exception {
        List<FileItem> good = LoaderTestFiles.good(dir.resolve("good"), 1);
        List<LoaderTestFiles.Bad> bad = LoaderTestFiles.bad(dir, good.get(0).path());
        try (org.spdl4j.offheap.BufferPool pool = org.spdl4j.offheap.BufferPool.open(
                org.spdl4j.offheap.PoolConfig.builder("read-test").sizeClass(1 << 20, 2).build())) {
            ImageItemPool items = new ImageItemPool(2);
            ReadStage read = new ReadStage(pool, items);
            for (LoaderTestFiles.Bad b : bad) {
                if (!b.rejectedByRead()) {
                    continue;
                }
                ImageItem item = items.take();
                item.file = new FileItem(b.path(), "x", 0);
                MediaException e = org.assertj.core.api.Assertions.catchThrowableOfType(MediaException.class,
                        () -> read.apply(item));
                assertThat(e).as(b.path().toString()).isNotNull();
                assertThat(e.input()).isEqualTo(b.path().toString());
                assertThat(items.available()).as("the failed item went back to its pool").isEqualTo(items.size());
            }
            assertThat(pool.inUse()).isZero();
        }
    }
}
