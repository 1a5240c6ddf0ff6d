package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;

/** The read stage's failures name the file, in its message and in the item the engine logs afterwards. */
class ReadStageTest {
    @TempDir
    Path dir;

    @Test
    void shouldSayNoSuchFileAndLeaveTheFailedItemNamingItsFile() {
        ImageItemPool items = new ImageItemPool(2);
        try (BufferPool bytes = BufferPool.open(PoolConfig.builder("read-test").sizeClass(1024, 2).build())) {
            Path missing = dir.resolve("a.jpg");
            ImageItem item = takeFor(items, new FileItem(missing, "a.jpg", 0));
            assertThatThrownBy(() -> new ReadStage(bytes, items).apply(item)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("read " + missing + ": no such file");
            // The engine logs "task failed on item <item>" after the throw: the item must still name its file.
            assertThat(item).hasToString(missing.toString());
            assertThat(items.available()).as("a fresh item took the failed one's place").isEqualTo(2);
            assertThat(bytes.inUse()).isZero();
        }
    }

    @Test
    void shouldReadAFileIntoPooledBytes() throws Exception {
        ImageItemPool items = new ImageItemPool(2);
        try (BufferPool bytes = BufferPool.open(PoolConfig.builder("read-test").sizeClass(1024, 1).build())) {
            byte[] content = new byte[1000];
            new java.util.Random(7).nextBytes(content);
            Path file = Files.write(dir.resolve("b.jpg"), content);
            ImageItem item = new ReadStage(bytes, items).apply(takeFor(items, new FileItem(file, "b.jpg", 0)));
            int length = item.length;
            byte[] read = new byte[content.length];
            item.bytes.buffer().getBytes(0, read);
            items.release(item);
            assertThat(length).isEqualTo(content.length);
            assertThat(read).as("the pooled bytes hold the file").isEqualTo(content);
            assertThat(bytes.inUse()).isZero();
            assertThat(items.available()).isEqualTo(2);
        }
    }

    private static ImageItem takeFor(ImageItemPool items, FileItem file) {
        try {
            ImageItem item = items.take();
            item.file = file;
            return item;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
