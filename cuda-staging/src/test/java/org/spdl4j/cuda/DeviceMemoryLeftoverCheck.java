package org.spdl4j.cuda;

import static jcuda.driver.JCudaDriver.cuMemGetInfo;

import jcuda.driver.CUresult;
import org.spdl4j.offheap.testing.LeftoverCheck;

/**
 * On a GPU machine, device memory must be back where it was before the test class: free memory (cuMemGetInfo) after
 * the class within {@link #TOLERANCE_BYTES} of before. The check holds its own retain of the primary context for the
 * class, so the context (and its fixed overhead) outlives the devices the tests open and close, and only their
 * allocations count. Does nothing where no GPU can be used. Registered as a {@code LeftoverCheck} service.
 */
public final class DeviceMemoryLeftoverCheck implements LeftoverCheck {
    /** Allocation granularity slack: the driver rounds allocations to 2 MiB pages. */
    static final long TOLERANCE_BYTES = 2L << 20;
    private CudaContext context;
    private long freeBefore;

    /** Created by the service loader. */
    public DeviceMemoryLeftoverCheck() {
    }

    @Override
    public void before() {
        if (!DeviceDiscovery.probe().available()) {
            return;
        }
        context = CudaContext.retainPrimary(JCudaDriverApi.INSTANCE, CudaConfiguration.DEVICE);
        freeBefore = free();
    }

    @Override
    public String leftovers() {
        if (context == null) {
            return null;
        }
        long lost = freeBefore - free();
        return lost <= TOLERANCE_BYTES ? null : (lost >> 10) + " KiB of device memory on " + context.name()
                + " not freed (free memory before the class " + (freeBefore >> 20) + " MiB)";
    }

    @Override
    public void after() {
        if (context != null) {
            context.close();
            context = null;
        }
    }

    private long free() {
        context.makeCurrent();
        long[] free = new long[1];
        long[] total = new long[1];
        int r = cuMemGetInfo(free, total);
        if (r != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException("cuMemGetInfo", r);
        }
        return free[0];
    }
}
