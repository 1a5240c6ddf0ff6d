package org.spdl4j.cuda;

import java.nio.charset.StandardCharsets;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUresult;

/**
 * One GPU's primary context, retained for the life of a {@link CudaDevice} (the same context the CUDA runtime,
 * and so PyTorch or other libraries in the process, use: memory and events are shared with them).
 *
 * <p><b>Threads:</b> a CUDA context is current per thread. {@link #makeCurrent()} binds it to the calling thread;
 * every public entry point of cuda-staging calls it first, so any thread may use the device. It is a driver
 * thread-local write (no allocation, no lock), cheap next to the call it precedes.
 */
final class CudaContext {
    private final DriverApi driver;
    private final CUdevice device;
    private final CUcontext context;
    private final String name;
    private final int multiprocessors;
    /** Set once on release; volatile so late closers on other threads see it and skip the driver. */
    private volatile boolean released;

    private CudaContext(DriverApi driver, CUdevice device, CUcontext context, String name, int multiprocessors) {
        this.driver = driver;
        this.device = device;
        this.context = context;
        this.name = name;
        this.multiprocessors = multiprocessors;
    }

    /**
     * Retains the primary context of a GPU. cuInit must have succeeded (see {@link DeviceDiscovery}).
     *
     * @param driver  the driver calls ({@link JCudaDriverApi#INSTANCE}; a fake in tests)
     * @param ordinal GPU index
     * @return the retained context, current on the calling thread
     */
    static CudaContext retainPrimary(DriverApi driver, int ordinal) {
        CUdevice device = new CUdevice();
        int r = driver.deviceGet(device, ordinal);
        if (r != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException("cuDeviceGet(" + ordinal + ")", r);
        }
        byte[] raw = new byte[256];
        r = driver.deviceGetName(raw, device);
        if (r != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException("cuDeviceGetName(" + ordinal + ")", r);
        }
        int length = 0;
        while (length < raw.length && raw[length] != 0) {
            length++;
        }
        String name = "cuda:" + ordinal + " " + new String(raw, 0, length, StandardCharsets.US_ASCII);
        int[] sms = new int[1];
        r = driver.deviceGetAttribute(sms, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
        if (r != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException("cuDeviceGetAttribute(MULTIPROCESSOR_COUNT) on " + name, r);
        }
        CUcontext context = new CUcontext();
        r = driver.primaryCtxRetain(context, device);
        if (r != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException("cuDevicePrimaryCtxRetain on " + name, r);
        }
        CudaContext ctx = new CudaContext(driver, device, context, name, sms[0]);
        try {
            ctx.makeCurrent();
        } catch (RuntimeException | Error e) { // nobody holds ctx yet: give the retain back, or it is never released
            try {
                ctx.release();
            } catch (RuntimeException | Error releaseFailure) {
                e.addSuppressed(releaseFailure);
            }
            throw e;
        }
        return ctx;
    }

    /** Binds the context to the calling thread. */
    void makeCurrent() {
        if (released) {
            throw new DeviceClosedException(name + " is closed");
        }
        CudaCalls.check(driver.ctxSetCurrent(context), "cuCtxSetCurrent", this);
    }

    /** {@return true once {@link #release()} ran: the context may be gone, handles from it are dead} */
    boolean isReleased() {
        return released;
    }

    /** Drops this retain; the driver destroys the context (and frees all it holds) when the last retain goes. */
    void release() {
        if (released) {
            return;
        }
        released = true;
        CudaCalls.check(driver.primaryCtxRelease(device), "cuDevicePrimaryCtxRelease", this);
    }

    /** {@return the driver calls this context and everything made in it go through} */
    DriverApi driver() {
        return driver;
    }

    /** {@return "cuda:ORDINAL NAME"} */
    String name() {
        return name;
    }

    /** {@return the number of streaming multiprocessors, to size kernel grids} */
    int multiprocessors() {
        return multiprocessors;
    }
}
