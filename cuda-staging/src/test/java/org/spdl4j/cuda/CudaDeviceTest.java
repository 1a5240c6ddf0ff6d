package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.tensor.DType;

/** What only a real GPU can show; skipped (with the reason) where there is none. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CudaDeviceTest {
    private static final float[] MEAN = {0.485f, 0.456f, 0.406f};
    private static final float[] STD = {0.229f, 0.224f, 0.225f};

    private CudaDevice device;

    @BeforeEach
    void open() {
        GpuTests.assumeGpu(); // per test, so each one is reported skipped with the reason
        device = CudaDevice.open(0);
    }

    @AfterEach
    void close() {
        if (device != null) {
            device.close();
        }
    }

    @Test
    void shouldMatchTheCpuReferenceBitForBit() {
        TensorSpec spec = TensorSpec.of(DType.U8, 32, 224, 224, 3);
        TensorSpec outSpec = NormalizeKernel.outputSpec(spec);
        ChannelNormalization norm = ChannelNormalization.of(MEAN, STD);
        TestBatches batches = new TestBatches(device);
        HostBatch host = batches.random(spec, 5, null);
        long reference = device.hostAllocator().allocate(outSpec.byteSize(), TestBatches.ALIGNMENT);
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2)) {
            // CPU reference from the same host bytes, before the transfer releases them.
            HostNormalizeKernel.normalize(host.address(), spec, reference, norm);
            float[] expected = NativeMemory.view(reference, outSpec.byteSize()).toArray(ValueLayout.JAVA_FLOAT);
            try (DeviceBatch batch = transfer.apply(host);
                 DeviceBuffer out = device.allocate(outSpec.byteSize());
                 DeviceStream stream = device.createStream()) {
                stream.waitFor(batch.readyEvent());
                device.normalizeKernel().launch(batch.buffer(), spec, out, norm, stream);
                stream.synchronize();
                float[] actual = TestBatches.readFloats(device, out, outSpec.elementCount());
                // fma.rn.f32 on the GPU and Math.fma in Java round once, from the same float constants: identical.
                int first = java.util.Arrays.mismatch(actual, expected);
                assertThat(first).as("first differing element %d: GPU %s, CPU %s", first,
                        first < 0 ? "" : actual[first], first < 0 ? "" : expected[first]).isEqualTo(-1);
            }
        } finally {
            device.hostAllocator().free(reference, outSpec.byteSize(), TestBatches.ALIGNMENT);
        }
    }

    /**
     * A timing comparison (two streams against one), so tagged {@code gpu-bench}: left out of {@code mvn verify} even on a
     * GPU machine, where another process may share the card; {@code .device/run-gpu-tests.sh} runs it.
     */
    @Test
    @Tag("gpu-bench")
    void shouldOverlapACopyOnOneStreamWithKernelsOnAnother() {
        long copyBytes = 64L << 20;
        TensorSpec kernelIn = TensorSpec.of(DType.U8, 32, 224, 224, 3);
        ChannelNormalization norm = ChannelNormalization.of(MEAN, STD);
        long host = device.hostAllocator().allocate(copyBytes, TestBatches.ALIGNMENT);
        NativeMemory.view(host, copyBytes).fill((byte) 7);
        NormalizeKernel kernel = device.normalizeKernel();
        try (DeviceBuffer copyDst = device.allocate(copyBytes);
             DeviceBuffer in = device.allocate(kernelIn.byteSize());
             DeviceBuffer out = device.allocate(NormalizeKernel.outputSpec(kernelIn).byteSize());
             DeviceStream s1 = device.createStream();
             DeviceStream s2 = device.createStream();
             DeviceEvent a = device.createTimingEvent();
             DeviceEvent b = device.createTimingEvent();
             DeviceEvent c = device.createTimingEvent()) {
            // Calibrate: one copy, one kernel, each alone; pick a kernel count that takes about as long as the copy.
            device.copyToDevice(host, copyDst, copyBytes, s1);
            kernel.launch(in, kernelIn, out, norm, s1);
            s1.synchronize();
            float copyMs = timed(s1, a, b, () -> device.copyToDevice(host, copyDst, copyBytes, s1));
            float kernelMs = timed(s1, a, b, () -> kernel.launch(in, kernelIn, out, norm, s1));
            int launches = Math.max(1, Math.round(copyMs / Math.max(kernelMs, 1e-3f)));
            Runnable kernels = () -> {
                for (int i = 0; i < launches; i++) {
                    kernel.launch(in, kernelIn, out, norm, s2);
                }
            };

            // One stream: copy then kernels, serialized.
            float serialMs = timed(s1, a, b, () -> {
                device.copyToDevice(host, copyDst, copyBytes, s1);
                for (int i = 0; i < launches; i++) {
                    kernel.launch(in, kernelIn, out, norm, s1);
                }
            });
            // Two streams: the copy engine and the SMs work at once.
            s1.synchronize();
            a.record(s1);
            s2.waitFor(a);
            device.copyToDevice(host, copyDst, copyBytes, s1);
            kernels.run();
            c.record(s2);
            s1.waitFor(c);
            b.record(s1);
            b.synchronize();
            float parallelMs = device.elapsedMillis(a, b);

            assertThat(parallelMs).as("copy %.3f ms, kernel %.3f ms x %d, serial %.3f ms, two streams %.3f ms",
                    copyMs, kernelMs, launches, serialMs, parallelMs).isLessThan(0.8f * serialMs);
        } finally {
            device.hostAllocator().free(host, copyBytes, TestBatches.ALIGNMENT);
        }
    }

    private float timed(DeviceStream stream, DeviceEvent start, DeviceEvent end, Runnable work) {
        stream.synchronize();
        start.record(stream);
        work.run();
        end.record(stream);
        end.synchronize();
        return device.elapsedMillis(start, end);
    }

    @Test
    void shouldReturnDeviceMemoryToItsStartingValueAfterClose() {
        // Warm up once so the driver's own one-time allocations (kernel code, stream structures) are not counted.
        runWorkload();
        long before = device.freeMemory();
        runWorkload();
        long after = device.freeMemory();
        // The workload holds > 100 MiB at its peak; any leaked block shows. 2 MiB = the driver's allocation granule.
        assertThat(Math.abs(after - before)).as("free before %d, after %d", before, after).isLessThanOrEqualTo(2L << 20);
    }

    /** Opens a second handle on the same primary context (so the context outlives it), works, and closes it. */
    private void runWorkload() {
        CudaDevice other = CudaDevice.open(0);
        try {
            TestBatches batches = new TestBatches(other);
            TensorSpec spec = TensorSpec.of(DType.U8, 64, 224, 224, 3);
            try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(other, 4);
                 DeviceStream stream = other.createStream()) {
                DeviceBatch[] held = new DeviceBatch[8];
                for (int i = 0; i < held.length; i++) {
                    held[i] = transfer.apply(batches.random(spec, i, null));
                }
                try (DeviceBuffer out = other.allocate(NormalizeKernel.outputSpec(spec).byteSize())) {
                    stream.waitFor(held[0].readyEvent());
                    other.normalizeKernel().launch(held[0].buffer(), spec, out, ChannelNormalization.of(MEAN, STD), stream);
                    stream.synchronize();
                }
                for (DeviceBatch b : held) {
                    b.close();
                }
            }
            assertThat(other.freeMemory()).isLessThan(other.totalMemory());
        } finally {
            other.close();
        }
        assertThat(other.counters().allReleased()).as("%s", other.counters()).isTrue();
    }

    @Test
    void shouldNameTheCudaErrorWhenTheDriverRefuses() {
        assertThatThrownBy(() -> device.allocate(1L << 50))
                .isInstanceOf(CudaDriverException.class)
                .hasMessageContaining("cuMemAlloc")
                .hasMessageContaining("CUDA_ERROR_OUT_OF_MEMORY")
                .hasMessageContaining(device.name())
                .satisfies(e -> assertThat(((CudaDriverException) e).errorName()).isEqualTo("CUDA_ERROR_OUT_OF_MEMORY"));
        // Not sticky: the device still works.
        try (DeviceBuffer ok = device.allocate(1 << 20)) {
            assertThat(ok.address()).isNotZero();
        }
    }

    @Test
    void shouldAllocateAlignedPinnedMemoryAndFreeIt() {
        CudaPinnedAllocator pinned = device.pinnedAllocator();
        assertThat(pinned.isPinned()).isTrue();
        for (int alignment : new int[] {64, 4096, 1 << 16}) {
            long address = pinned.allocate(1 << 20, alignment);
            assertThat(address % alignment).isZero();
            MemorySegment block = NativeMemory.view(address, 1 << 20);
            block.fill((byte) 0x5A);
            assertThat(block.get(ValueLayout.JAVA_BYTE, (1 << 20) - 1)).isEqualTo((byte) 0x5A);
            assertThat(device.counters().hostBlocks()).isEqualTo(1);
            pinned.free(address, 1 << 20, alignment);
        }
        assertThat(device.counters().hostBlocks()).isZero();
        assertThatThrownBy(() -> pinned.free(0x1000, 16, 64)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> pinned.devicePointer(0x1000)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("DeviceOptions.withPinnedDeviceMap(true)");
    }

    @Test
    void shouldWorkFromAnyThread() throws Exception {
        byte[] expected = new byte[4096];
        TestBatches batches = new TestBatches(device);
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2)) {
            DeviceBatch[] result = new DeviceBatch[1];
            Thread t = Thread.ofPlatform().start(() -> result[0] = transfer.apply(
                    batches.random(TensorSpec.of(DType.U8, 4096), 9, expected)));
            t.join();
            try (DeviceBatch batch = result[0]) { // submitted from a fresh thread: the context was made current there
                batch.awaitReady();
                assertThat(TestBatches.readBack(device, batch.buffer(), 4096)).isEqualTo(expected);
            }
        }
    }
}
