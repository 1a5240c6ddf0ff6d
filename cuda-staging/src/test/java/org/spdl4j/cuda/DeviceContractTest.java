package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.batch.Slot;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.ImageLayout;
import org.spdl4j.offheap.testing.PoolLeakExtension;

/**
 * What every {@link Device} must do, run against each implementation (host always; CUDA where a GPU is present).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(PoolLeakExtension.class)
abstract class DeviceContractTest {
    static final List<TensorSpec> SHAPES = List.of(
            TensorSpec.of(DType.U8, 1, 1, 1, 1),
            TensorSpec.of(DType.U8, 2, 3, 5, 3),
            TensorSpec.of(DType.U8, 4, 64, 48, 3),
            TensorSpec.of(DType.U8, 32, 224, 224, 3),
            TensorSpec.of(DType.F32, 3, 1000),
            TensorSpec.of(DType.I16, 2, 48_000));

    Device device;

    abstract Device openDevice();

    @BeforeEach
    void open() {
        device = openDevice();
    }

    @AfterEach
    void closeDevice() {
        if (device != null) {
            device.close();
        }
    }

    @Test
    void shouldRoundTripBytesExactlyForSeveralShapes() {
        TestBatches batches = new TestBatches(device);
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 3)) {
            long seed = 1;
            for (TensorSpec spec : SHAPES) {
                byte[] expected = new byte[(int) spec.byteSize()];
                try (DeviceBatch batch = transfer.apply(batches.random(spec, seed++, expected))) {
                    batch.awaitReady();
                    assertThat(batch.isReady()).isTrue();
                    assertThat(batch.spec()).isEqualTo(spec);
                    byte[] actual = TestBatches.readBack(device, batch.buffer(), spec.byteSize());
                    assertThat(actual).as("bytes of %s after host->device->host", spec).isEqualTo(expected);
                }
            }
        }
        assertThat(batches.released).hasValue(SHAPES.size());
    }

    private static byte pattern(long sequence, int index) {
        return (byte) (sequence * 31 + index * 7);
    }

    @Test
    void shouldCarryAssembledPoolBatchesToTheDeviceAndReturnEveryLease() {
        BatchDescriptor layout = BatchDescriptor.images(4, ImageLayout.NHWC, 8, 6, 3, DType.U8);
        int samples = 10; // batches: 0-3, 4-7 without the failed 5, then 8-9 flushed at the end
        long failing = 5;
        PoolConfig config = PoolConfig.builder("h2d-contract").allocator(device.hostAllocator()).dmaAligned()
                .sizeClass(layout.batchBytes(), 3).build();
        long hostBlocksBefore = device.counters().hostBlocks();
        List<DeviceBatch> onDevice = new ArrayList<>();
        List<long[]> held = new ArrayList<>();
        try (BufferPool pool = BufferPool.open(config)) {
            assertThat(device.counters().hostBlocks()).as("pool memory from the device's host allocator")
                    .isGreaterThan(hostBlocksBefore);
            assertThat(pool.config().allocator().isPinned()).as("pinned exactly on a GPU").isEqualTo(device.isGpu());
            HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2);
            try (transfer) {
                try (BatchAssembler assembler = BatchAssembler.builder(pool, layout).batchesInFlight(3).consumer(batch -> {
                    long[] sequences = new long[batch.size()];
                    for (int i = 0; i < sequences.length; i++) {
                        sequences[i] = batch.sequence(i);
                    }
                    held.add(sequences);
                    onDevice.add(transfer.apply(HostBatch.of(batch))); // the transfer now owns (and will close) the batch
                }).build()) {
                    for (int s = 0; s < samples; s++) {
                        Slot slot = assembler.claim();
                        if (slot.sequence() == failing) {
                            slot.fail(new IllegalStateException("corrupt sample " + failing));
                            continue;
                        }
                        for (int j = 0; j < slot.length(); j++) {
                            slot.buffer().putByte(j, pattern(slot.sequence(), j));
                        }
                        slot.complete();
                    }
                }
                assertThat(held).containsExactly(new long[] {0, 1, 2, 3}, new long[] {4, 6, 7}, new long[] {8, 9});
                for (int b = 0; b < onDevice.size(); b++) {
                    long[] sequences = held.get(b);
                    try (DeviceBatch batch = onDevice.get(b)) {
                        batch.awaitReady();
                        assertThat(batch.spec()).isEqualTo(TensorSpec.of(DType.U8, sequences.length, 8, 6, 3));
                        byte[] expected = new byte[sequences.length * layout.sampleBytes()];
                        for (int i = 0; i < sequences.length; i++) {
                            for (int j = 0; j < layout.sampleBytes(); j++) {
                                expected[i * layout.sampleBytes() + j] = pattern(sequences[i], j);
                            }
                        }
                        assertThat(TestBatches.readBack(device, batch.buffer(), batch.spec().byteSize()))
                                .as("batch %d after pool -> device -> host", b).isEqualTo(expected);
                    }
                }
            } // closing the transfer waits for the copies: every host batch released
            assertThat(transfer.releasedHostBatches()).isEqualTo(3);
            assertThat(pool.inUse()).as("every batch lease back in the pool").isZero();
        }
        assertThat(device.counters().hostBlocks()).as("pool memory freed").isEqualTo(hostBlocksBefore);
    }

    @Test
    void shouldNormalizeLikeAnIndependentComputation() {
        float[] mean = {0.485f, 0.456f, 0.406f};
        float[] std = {0.229f, 0.224f, 0.225f};
        TensorSpec spec = TensorSpec.of(DType.U8, 2, 5, 7, 3);
        byte[] pixels = new byte[(int) spec.byteSize()];
        TestBatches batches = new TestBatches(device);
        TensorSpec outSpec = NormalizeKernel.outputSpec(spec);
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2);
             DeviceBatch batch = transfer.apply(batches.random(spec, 42, pixels));
             DeviceBuffer out = device.allocate(outSpec.byteSize());
             DeviceStream stream = device.createStream()) {
            stream.waitFor(batch.readyEvent());
            device.normalizeKernel().launch(batch.buffer(), spec, out, ChannelNormalization.of(mean, std), stream);
            stream.synchronize();
            float[] actual = TestBatches.readFloats(device, out, outSpec.elementCount());

            assertThat(outSpec).isEqualTo(TensorSpec.of(DType.F32, 2, 3, 5, 7));
            int i = 0;
            for (int n = 0; n < 2; n++) {
                for (int c = 0; c < 3; c++) {
                    for (int y = 0; y < 5; y++) {
                        for (int x = 0; x < 7; x++) {
                            int pixel = Byte.toUnsignedInt(pixels[((n * 5 + y) * 7 + x) * 3 + c]);
                            double expected = (pixel / 255.0 - mean[c]) / std[c];
                            assertThat((double) actual[i++]).as("n=%d c=%d y=%d x=%d", n, c, y, x)
                                    .isCloseTo(expected, within(2e-6));
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldRejectAShapeTheKernelCannotTake() {
        TensorSpec rgb = TensorSpec.of(DType.U8, 1, 2, 2, 3);
        try (DeviceBuffer in = device.allocate(rgb.byteSize());
             DeviceBuffer out = device.allocate(4 * rgb.byteSize());
             DeviceStream stream = device.createStream()) {
            ChannelNormalization gray = ChannelNormalization.of(new float[] {0.5f}, new float[] {0.5f});
            assertThatThrownBy(() -> device.normalizeKernel().launch(in, rgb, out, gray, stream))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 channels");
            assertThatThrownBy(() -> device.normalizeKernel().launch(in, TensorSpec.of(DType.F32, 1, 2, 2, 3), out,
                    gray, stream)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("U8 [N, H, W, C]");
        }
    }

    @Test
    void shouldReleaseEveryHostBatchAndCompleteFutures() throws Exception {
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 8, 32, 32, 3);
        int count = 40;
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 4)) {
            for (int i = 0; i < count; i++) {
                byte[] expected = new byte[(int) spec.byteSize()];
                CompletableFuture<DeviceBatch> future = transfer.applyAsync(batches.random(spec, i, expected));
                try (DeviceBatch batch = future.get(30, TimeUnit.SECONDS)) {
                    assertThat(batch.isReady()).as("ready when the future completes").isTrue();
                    if (i % 10 == 0) {
                        assertThat(TestBatches.readBack(device, batch.buffer(), spec.byteSize())).isEqualTo(expected);
                    }
                }
            }
            assertThat(transfer.releasedHostBatches()).isEqualTo(count);
        }
        assertThat(batches.released).hasValue(count);
    }

    @Test
    void shouldKeepBatchesValidWhileManyAreHeldByTheConsumer() {
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 2, 16, 16, 3);
        int held = 10; // more than K: device batches outlive their copy slots
        byte[][] expected = new byte[held][(int) spec.byteSize()];
        DeviceBatch[] out = new DeviceBatch[held];
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2)) {
            for (int i = 0; i < held; i++) {
                out[i] = transfer.apply(batches.random(spec, 100 + i, expected[i]));
            }
            for (int i = 0; i < held; i++) {
                out[i].awaitReady();
                assertThat(TestBatches.readBack(device, out[i].buffer(), spec.byteSize())).isEqualTo(expected[i]);
                assertThat(out[i].devicePointer()).isNotZero();
                out[i].close();
            }
        }
        assertThat(batches.released).hasValue(held);
    }

    @Test
    void shouldFreeEverythingOnClose() {
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 4, 32, 32, 3);
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 3)) {
            for (int i = 0; i < 7; i++) {
                transfer.apply(batches.random(spec, i, null)).close();
            }
            assertThat(device.counters().streams()).isEqualTo(3);
            assertThat(device.counters().deviceAllocations()).as("pool keeps freed buffers").isPositive();
        }
        assertThat(device.counters().streams()).isZero();
        assertThat(device.counters().events()).isZero();
        assertThat(device.counters().leasedBuffers()).isZero();
        assertThat(device.counters().hostBlocks()).as("every host batch freed").isZero();
        device.close();
        assertThat(device.counters().allReleased()).as("counters after close: %s", device.counters()).isTrue();
        device = null;
    }

    @Test
    void shouldReuseDeviceMemoryWithinASizeClass() {
        long first;
        try (DeviceBuffer a = device.allocate(4_816_896)) {
            first = a.address();
            assertThat(a.capacity()).isEqualTo(5L << 20);
        }
        try (DeviceBuffer b = device.allocate(5_000_000)) {
            assertThat(b.address()).as("same size class, reused").isEqualTo(first);
            assertThat(b.byteSize()).isEqualTo(5_000_000);
        }
        assertThat(device.counters().deviceAllocations()).isEqualTo(1);
    }

    @Test
    void shouldRefuseBatchesAfterCloseAndStillReleaseThem() {
        TestBatches batches = new TestBatches(device);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2);
        transfer.close();
        HostBatch late = batches.random(TensorSpec.of(DType.U8, 4), 7, null);
        assertThatThrownBy(() -> transfer.apply(late)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(batches.released).hasValue(1);
        assertThat(transfer.applyAsync(batches.random(TensorSpec.of(DType.U8, 4), 8, null))).isCompletedExceptionally();
        assertThat(batches.released).hasValue(2);
    }

    @Test
    void shouldRejectClosingABufferTwice() {
        DeviceBuffer buffer = device.allocate(1024);
        buffer.close();
        assertThatThrownBy(buffer::close).isInstanceOf(IllegalStateException.class).hasMessageContaining("twice");
    }
}
