package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import jcuda.driver.CUresult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spdl4j.offheap.tensor.DType;

/**
 * What {@link CudaDevice} owns and when it gives it back (the primary context, device and pinned memory, streams,
 * events, the kernel module), on a fake driver ({@link FakeDriverApi}): runs without a GPU.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CudaDeviceOwnershipTest {
    private static final long POOL_CAP = 1L << 30;

    private final FakeDriverApi driver = new FakeDriverApi();

    private CudaDevice open() {
        return CudaDevice.open(driver, 0, POOL_CAP, false);
    }

    @Test
    void shouldFreeEverythingAndReleaseTheContextWhenClosedAfterItsResources() throws Exception {
        CudaDevice device = open();
        assertThat(driver.retains()).isEqualTo(1);
        HostDevice host = new HostDevice(); // real memory for the host batches: the fake's addresses are made up
        TestBatches batches = new TestBatches(host);
        long pinned = device.hostAllocator().allocate(1 << 20, 4096);
        device.normalizeKernel();
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2)) {
            for (int i = 0; i < 5; i++) {
                transfer.applyAsync(batches.random(TensorSpec.of(DType.U8, 4096), i, null)).get(10, TimeUnit.SECONDS)
                        .close();
            }
        }
        device.hostAllocator().free(pinned, 1 << 20, 4096);
        assertThat(batches.released).hasValue(5);

        device.close();

        assertThat(device.counters().allReleased()).as("%s", device.counters()).isTrue();
        assertThat(driver.retains()).as("primary context retains").isZero();
        assertThat(driver.destroyedWith()).as("live in the context when it was destroyed").isEmpty();
        assertThat(driver.callsWithoutContext()).isEmpty();
        host.close();
    }

    /** Open retains the primary context, then makes it current; when that fails, the retain must go again. */
    @Test
    void shouldReleaseThePrimaryContextWhenOpenCannotMakeItCurrent() {
        driver.failNext("cuCtxSetCurrent", CUresult.CUDA_ERROR_UNKNOWN);

        assertThatThrownBy(this::open).isInstanceOf(CudaDriverException.class)
                .hasMessageContaining("cuCtxSetCurrent").hasMessageContaining("CUDA_ERROR_UNKNOWN");

        assertThat(driver.retains()).as("primary context retains left by the failed open").isZero();
    }

    /**
     * A device closed while a buffer, a stream, an event and a pinned block are still held (the wrong order, but it
     * happens: a consumer still holding a batch, an off-heap pool closed after the device). They become unusable, but
     * closing them later must still free them: before the fix close released the primary context at once and the
     * later frees were skipped, so with another retain on the context (PyTorch, a second device handle) their memory
     * stayed allocated for good, and with none the driver freed pinned memory a pool was still handing out.
     */
    @Test
    void shouldKeepTheContextUntilWhatOutlivedCloseIsFreed() {
        CudaDevice other = open(); // another user of the primary context in the process
        CudaDevice device = open();
        DeviceBuffer buffer = device.allocate(1 << 20);
        DeviceStream stream = device.createStream();
        DeviceEvent event = device.createEvent();
        long pinned = device.hostAllocator().allocate(1 << 20, 4096);

        device.close();

        assertThatThrownBy(event::synchronize).as("a wait after close").isInstanceOf(DeviceClosedException.class);
        assertThatThrownBy(() -> device.createStream()).isInstanceOf(DeviceClosedException.class);
        assertThat(driver.retains()).as("retains while the closed device's resources live").isEqualTo(2);
        buffer.close();
        stream.close();
        event.close();
        device.hostAllocator().free(pinned, 1 << 20, 4096);

        assertThat(driver.live()).as("left in the context, which another user keeps alive").isEmpty();
        assertThat(driver.retains()).as("retains once the last resource is freed").isEqualTo(1);
        assertThat(device.counters().allReleased()).as("%s", device.counters()).isTrue();
        other.close();
        assertThat(driver.retains()).isZero();
        assertThat(driver.destroyedWith()).isEmpty();
        assertThat(driver.callsWithoutContext()).isEmpty();
    }

    /** The same without another user: the context must outlive close until the last resource is freed in it. */
    @Test
    void shouldReleaseTheContextWithTheLastResourceWhenClosedFirst() {
        CudaDevice device = open();
        long pinned = device.hostAllocator().allocate(1 << 20, 4096);
        DeviceBuffer buffer = device.allocate(1 << 20);

        device.close();
        assertThat(driver.retains()).as("retains while a pinned block and a buffer live").isEqualTo(1);
        device.hostAllocator().free(pinned, 1 << 20, 4096);
        assertThat(driver.retains()).as("retains while a buffer lives").isEqualTo(1);
        buffer.close();

        assertThat(driver.retains()).as("released with the last resource").isZero();
        assertThat(driver.destroyedWith()).as("live in the context when it was destroyed").isEmpty();
        assertThat(driver.callsWithoutContext()).isEmpty();
        assertThat(device.counters().allReleased()).as("%s", device.counters()).isTrue();
        device.close(); // again: nothing
        assertThat(driver.callsWithoutContext()).isEmpty();
    }

    /**
     * A cached device block whose free fails on close (a driver error) must not stop the rest of close: before the
     * fix the kernel module was then never unloaded, left in the context for as long as anyone retains it.
     */
    @Test
    void shouldUnloadTheKernelAndReleaseTheContextWhenFreeingTheCacheFails() {
        CudaDevice device = open();
        device.allocate(1 << 20).close(); // cached in the pool
        device.normalizeKernel();
        driver.failNext("cuMemFree", CUresult.CUDA_ERROR_UNKNOWN);

        assertThatThrownBy(device::close).isInstanceOf(CudaDriverException.class).hasMessageContaining("cuMemFree");

        assertThat(driver.retains()).isZero();
        assertThat(driver.destroyedWith()).as("left for the driver: only the block whose free failed")
                .containsExactly("1 device block(s)");
        assertThat(driver.callsWithoutContext()).isEmpty();
    }

    /**
     * A driver call of a submit that fails part way (the allocation, the event, the copy, either record) fails that
     * submit only: its host batch goes back, the lane too, the next submit works, and closing leaves nothing behind.
     */
    @ParameterizedTest
    @ValueSource(strings = {"cuMemAlloc", "cuEventCreate", "cuMemcpyHtoDAsync", "cuEventRecord", "cuCtxSetCurrent"})
    void shouldGiveEverythingBackWhenADriverCallOfASubmitFails(String call) throws Exception {
        CudaDevice device = open();
        HostDevice host = new HostDevice();
        TestBatches batches = new TestBatches(host);
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 5_000)) {
            driver.failNext(call, CUresult.CUDA_ERROR_LAUNCH_FAILED);
            assertThatThrownBy(() -> transfer.apply(batches.random(TensorSpec.of(DType.U8, 4096), 0, null)))
                    .hasMessageContaining(call).hasMessageContaining("CUDA_ERROR_LAUNCH_FAILED");
            assertThat(batches.released).as("the failed batch's host memory").hasValue(1);
            transfer.applyAsync(batches.random(TensorSpec.of(DType.U8, 4096), 1, null)).get(10, TimeUnit.SECONDS)
                    .close();
        }
        assertThat(batches.released).hasValue(2);
        device.close();
        assertThat(device.counters().allReleased()).as("%s", device.counters()).isTrue();
        assertThat(driver.retains()).isZero();
        assertThat(driver.destroyedWith()).as("live in the context when it was destroyed").isEmpty();
        assertThat(driver.callsWithoutContext()).isEmpty();
        host.close();
    }
}
