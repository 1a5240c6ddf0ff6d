package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import jcuda.driver.CUresult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
}
