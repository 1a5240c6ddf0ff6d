package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spdl4j.cuda.Device;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.cuda.DeviceDiscovery;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.testing.RingFill;
import org.spdl4j.media.NativeResourceCounter;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.batch.Batch;

/**
 * The image pipeline feeding a device, on the host device (runs everywhere): every image's bytes arrive on the
 * device exactly as the host-only loader assembles them, and every pool lease, device buffer, stream and event comes
 * back, after a full epoch and after a consumer that stops early.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DeviceImageLoaderTest {
    @TempDir
    static Path dir;
    static List<FileItem> files;

    @BeforeAll
    static void writeImages() throws Exception {
        files = LoaderTestFiles.good(dir, 42); // 42 = 10 batches of 4 and a partial one of 2
    }

    private static ImageLoaderOptions options(OutputOrder order) {
        return new ImageLoaderOptions(64, 72, 4, false, 8, 2, order, WaitPolicy.BACKOFF, 4, 4);
    }

    @Test
    void shouldDeliverEveryImageByteForByteAsTheHostLoaderAndReturnEveryResource() {
        List<Long> host = new ArrayList<>();
        try (ImageBatchLoader loader = ImageBatchLoader.of("h2d-ref", files, options(OutputOrder.INPUT))) {
            for (Batch batch : loader) {
                try (batch) {
                    ByteBuffer all = batch.tensor().asByteBuffer();
                    int sampleBytes = all.remaining() / batch.size();
                    for (int i = 0; i < batch.size(); i++) {
                        host.add(crc(all.slice(i * sampleBytes, sampleBytes)));
                    }
                }
            }
        }

        List<Long> device = new ArrayList<>();
        List<Integer> batchSizes = new ArrayList<>();
        Device target = DeviceDiscovery.open("host", 0);
        try (DeviceImageLoader loader = new DeviceImageLoader("h2d-dev", files, options(OutputOrder.INPUT), target, 2,
                null)) {
            for (DeviceBatch batch : loader) {
                try (batch) {
                    batch.awaitReady();
                    int n = batch.spec().dim(0);
                    batchSizes.add(n);
                    int sampleBytes = (int) (batch.spec().byteSize() / n);
                    for (int i = 0; i < n; i++) {
                        device.add(crc(onHost(batch.devicePointer() + (long) i * sampleBytes, sampleBytes)));
                    }
                }
            }
            assertThat(loader.failedImages()).isZero();
            assertThat(loader.stats()).extracting(StageStats::stage).contains(DeviceImageLoader.H2D_STAGE);
        }
        assertThat(target.counters().leasedBuffers()).as(target.counters().toString()).isZero();
        target.close();

        assertThat(host).hasSize(files.size()).doesNotHaveDuplicates(); // distinct images: the comparison means something
        assertThat(device).as("per-sample CRC32 in sequence order").isEqualTo(host);
        assertThat(batchSizes).containsExactly(4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2);
        assertThat(target.counters().allReleased()).as(target.counters().toString()).isTrue();
        assertThat(livePools("h2d-")).as("pools with a lease not returned").isEmpty();
    }

    @ParameterizedTest(name = "close after {0} device batches")
    @ValueSource(ints = {0, 1, 3})
    void shouldReleaseEveryHostAndDeviceBatchWhenTheConsumerStopsEarly(int batchesTaken) throws Exception {
        String name = "h2d-early-" + batchesTaken;
        Device target = DeviceDiscovery.open("host", 0);
        DeviceImageLoader loader = new DeviceImageLoader(name, files, options(OutputOrder.COMPLETION), target, 2,
                null);
        loader.pipeline().start();
        for (int i = 0; i < batchesTaken; i++) {
            try (DeviceBatch b = loader.pipeline().next(Duration.ofSeconds(30))) {
                b.awaitReady();
                assertThat(b.spec().dim(0)).isEqualTo(4);
            }
        }
        RingFill.awaitItemsInRings(loader.pipeline(), 2); // items in the rings for the close-time sweep

        long start = System.nanoTime();
        loader.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isLessThan(Duration.ofSeconds(2));
        assertThat(target.counters().leasedBuffers()).as("device buffers not returned: " + target.counters()).isZero();
        assertThat(target.counters().streams()).as("the transfer's streams").isZero();
        assertThat(aliveThreads("spdl4j-" + name + "-")).isEmpty();
        assertThat(aliveThreads("spdl4j-h2d-")).as("transfer completion threads").isEmpty();
        assertThat(livePools(name)).as("pools whose memory is still allocated: a lease was not returned").isEmpty();
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
        target.close();
        assertThat(target.counters().allReleased()).as(target.counters().toString()).isTrue();
    }

    private static List<String> livePools(String prefix) {
        return PoolRegistry.livePools().stream().map(BufferPool::name).filter(n -> n.startsWith(prefix)).toList();
    }

    private static List<String> aliveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.toLowerCase(Locale.ROOT).startsWith(prefix)).toList();
    }

    @SuppressWarnings("restricted") // reads the host device's memory by address; tests run with native access
    private static ByteBuffer onHost(long address, int bytes) {
        return MemorySegment.ofAddress(address).reinterpret(bytes).asByteBuffer();
    }

    private static long crc(ByteBuffer bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }
}
