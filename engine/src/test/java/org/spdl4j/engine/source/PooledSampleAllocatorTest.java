package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeaseStateException;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.testing.PoolLeakCheck;
import org.spdl4j.offheap.testing.PoolLeakExtension;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
@ExtendWith(PoolLeakExtension.class)
class PooledSampleAllocatorTest {
    @TempDir
    Path dir;

    static BufferPool smallPool(String name) {
        return BufferPool.open(PoolConfig.builder(name).sizeClass(4096, 4).sizeClass(64 * 1024, 2)
                .acquireTimeout(Duration.ofMillis(100)).build());
    }

    static byte[] payload(int seed, int size) {
        byte[] b = new byte[size];
        for (int j = 0; j < size; j++) {
            b[j] = (byte) (seed * 31 + j * 7);
        }
        return b;
    }

    @Test
    void shouldReadFilesIntoPooledSlabsAndGiveEveryLeaseBackOnClose() throws Exception {
        int[] sizes = {1, 100, 4096, 4097, 60_000, 0};
        try (BufferPool pool = smallPool("files")) {
            FileSampleReader reader = new FileSampleReader(new PooledSampleAllocator(pool));
            List<Sample> samples = new ArrayList<>();
            for (int i = 0; i < sizes.length; i++) {
                Path file = dir.resolve("s" + i + ".jpg");
                Files.write(file, payload(i, sizes[i]));
                samples.add(reader.apply(new FileItem(file, "s" + i + ".jpg", i)));
            }
            assertThat(pool.inUse()).as("one lease per non-empty file while the samples are open").isEqualTo(5);
            for (int i = 0; i < sizes.length; i++) {
                SampleField field = samples.get(i).field("jpg");
                assertThat(field.toByteArray()).as("file %d", i).isEqualTo(payload(i, sizes[i]));
                assertThat(field.bytes().isDirect()).isEqualTo(sizes[i] > 0);
            }
            samples.forEach(Sample::close);
            assertThat(pool.inUse()).as("pool full once the samples are closed").isZero();
        }
    }

    @Test
    void shouldHandOutTheSameViewPerSlabWithExactlyTheSizeAsked() {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("views").sizeClass(1024, 1).build())) {
            PooledSampleAllocator allocator = new PooledSampleAllocator(pool);
            ByteBuffer first = allocator.allocate(1000);
            assertThat(first.position()).isZero();
            assertThat(first.limit()).isEqualTo(1000);
            assertThat(first.remaining()).isEqualTo(1000);
            first.put(0, (byte) 42).position(17);
            allocator.release(first);
            ByteBuffer second = allocator.allocate(10);
            assertThat(second).as("no per-call view: the slab's one view is reused").isSameAs(first);
            assertThat(second.position()).isZero();
            assertThat(second.limit()).isEqualTo(10);
            assertThat(second.get(0)).as("same memory").isEqualTo((byte) 42);
            allocator.release(second);
            assertThat(pool.inUse()).isZero();
        }
    }

    /** A slab's one view is shared by every holder in turn: a holder's byte order must not reach the next. */
    @Test
    void shouldHandOutABigEndianViewWhateverOrderTheLastHolderSet() {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("order").sizeClass(1024, 1).build())) {
            PooledSampleAllocator allocator = new PooledSampleAllocator(pool);
            ByteBuffer first = allocator.allocate(16);
            first.order(ByteOrder.LITTLE_ENDIAN).putInt(0, 1);
            allocator.release(first);

            ByteBuffer second = allocator.allocate(16);

            assertThat(second.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
            assertThat(second.getInt(0)).as("the little-endian 1, read as the contract says").isEqualTo(1 << 24);
            allocator.release(second);
        }
    }

    @Test
    void shouldRejectForeignAndDoubleReleasesAndNameThePoolWhenExhausted() {
        try (BufferPool pool = smallPool("refusals")) {
            PooledSampleAllocator allocator = new PooledSampleAllocator(pool);
            assertThatThrownBy(() -> allocator.release(ByteBuffer.allocateDirect(16)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'refusals'");
            assertThatThrownBy(() -> allocator.release(ByteBuffer.allocate(16)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heap buffer");
            ByteBuffer b = allocator.allocate(64);
            assertThatThrownBy(() -> allocator.release(b.slice(8, 8))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not the start");
            allocator.release(b);
            assertThatThrownBy(() -> allocator.release(b)).isInstanceOf(LeaseStateException.class)
                    .hasMessageContaining("double release");
            assertThatThrownBy(() -> allocator.allocate(1 << 20)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("larger than its largest slab");
            List<ByteBuffer> held = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                held.add(allocator.allocate(64 * 1024));
            }
            assertThatThrownBy(() -> allocator.allocate(50_000)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pool 'refusals'").hasMessageContaining("no free slab");
            held.forEach(allocator::release);
            ByteBuffer empty = allocator.allocate(0);
            assertThat(empty.limit()).isZero();
            allocator.release(empty);
            assertThat(pool.inUse()).isZero();
        }
    }

    @Test
    void shouldReportASampleNeverClosedAsALeakWithWhereItsBytesWereAcquired() throws Exception {
        Path file = dir.resolve("leaky.png");
        Files.write(file, payload(7, 3000));
        try (BufferPool pool = smallPool("leaky-samples")) {
            PoolLeakCheck check = PoolLeakCheck.snapshot();
            Sample forgotten = new FileSampleReader(new PooledSampleAllocator(pool))
                    .apply(new FileItem(file, "leaky.png", 0));
            assertThatThrownBy(() -> check.assertNoLeaks(Duration.ofMillis(50), "reading leaky.png"))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("pool 'leaky-samples': 1 more lease(s) held")
                    .hasMessageContaining("LEAK: lease #")
                    .hasMessageContaining("FileSampleReader.apply");
            forgotten.close();
            check.assertNoLeaks(Duration.ofMillis(50), "after closing it");
        }
    }
}
