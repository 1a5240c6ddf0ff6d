package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.batch.Slot;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.Tensor;
import org.spdl4j.offheap.testing.PoolLeakExtension;

/** The adapters from off-heap memory to {@link HostBatch}: who releases what, and when. Host path only. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@ExtendWith(PoolLeakExtension.class)
class PooledHostBatchTest {
    private static PoolConfig pool(String name, Device device, int slabBytes, int count) {
        return PoolConfig.builder(name).allocator(device.hostAllocator()).dmaAligned().sizeClass(slabBytes, count)
                .build();
    }

    @Test
    void shouldReturnTheBatchLeaseToThePoolOnlyWhenTheCopyHasCompleted() throws Exception {
        TransferBackPressureTest.GatedDevice device = new TransferBackPressureTest.GatedDevice();
        BatchDescriptor layout = BatchDescriptor.of(2, DType.U8, 64);
        List<DeviceBatch> out = new ArrayList<>();
        try (BufferPool pool = BufferPool.open(pool("gated-h2d", device, layout.batchBytes(), 2));
             HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2);
             BatchAssembler assembler = BatchAssembler.builder(pool, layout)
                     .consumer(batch -> out.add(transfer.apply(HostBatch.of(batch)))).build()) {
            for (int i = 0; i < 2; i++) {
                Slot slot = assembler.claim();
                slot.buffer().setMemory(0, slot.length(), (byte) i);
                slot.complete();
            }
            assertThat(out).as("the batch went to the transfer when its last slot completed").hasSize(1);
            Thread.sleep(100); // time enough for a wrong early release to show
            assertThat(pool.inUse()).as("lease held while the copy is still running").isEqualTo(1);

            device.gate.countDown(); // the "DMA" completes
            out.get(0).awaitReady();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // the completion thread returns the lease, then counts the release: wait for both
            while ((pool.inUse() != 0 || transfer.releasedHostBatches() != 1) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(pool.inUse()).as("lease back once the copy's event completed").isZero();
            assertThat(transfer.releasedHostBatches()).isEqualTo(1);
            out.get(0).close();
        }
        device.close();
        assertThat(device.counters().allReleased()).as("%s", device.counters()).isTrue();
    }

    @Test
    void shouldCopyATensorOverALeaseAndReleaseTheLeaseOnce() {
        try (HostDevice device = new HostDevice();
             BufferPool pool = BufferPool.open(pool("tensor-h2d", device, 16 * 1024, 1))) {
            Lease lease = pool.acquire(8_000 + 64);
            Tensor tensor = Tensor.contiguous(lease, 64, DType.F32, 2, 1000);
            for (int i = 0; i < 2000; i++) {
                lease.buffer().putFloat(64 + i * Float.BYTES, i * 0.5f);
            }
            float[] actual;
            try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1);
                 DeviceBatch batch = transfer.apply(HostBatch.of(tensor, lease))) {
                batch.awaitReady();
                assertThat(batch.spec()).isEqualTo(TensorSpec.of(DType.F32, 2, 1000));
                actual = TestBatches.readFloats(device, batch.buffer(), 2000);
            }
            assertThat(lease.refCount()).as("the transfer dropped the caller's count").isZero();
            assertThat(pool.inUse()).isZero();
            for (int i = 0; i < 2000; i++) {
                assertThat(actual[i]).as("element %d", i).isEqualTo(i * 0.5f);
            }
        }
    }

    @Test
    void shouldRefuseATensorOverAnotherLeaseOrAStridedOne() {
        try (HostDevice device = new HostDevice();
             BufferPool pool = BufferPool.open(pool("refuse-h2d", device, 4096, 2))) {
            Lease a = pool.acquire(4096);
            Lease b = pool.acquire(4096);
            try {
                Tensor overA = Tensor.contiguous(a, 0, DType.U8, 16, 16);
                assertThatThrownBy(() -> HostBatch.of(overA, b)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("is not over");
                Tensor strided = Tensor.strided(a, 0, DType.U8, new long[] {4, 4}, new long[] {8, 1});
                assertThatThrownBy(() -> TensorSpec.of(strided)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("strided");
                assertThat(TensorSpec.of(Tensor.contiguous(b, 0, DType.I16, 3, 5, 7)))
                        .isEqualTo(TensorSpec.of(DType.I16, 3, 5, 7));
            } finally {
                a.release();
                b.release();
            }
            assertThat(device.counters().hostBlocks()).as("the pool's one chunk came from the device's allocator")
                    .isEqualTo(1);
        }
    }
}
