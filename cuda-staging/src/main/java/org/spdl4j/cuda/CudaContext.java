package org.spdl4j.cuda;

import java.nio.charset.StandardCharsets;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUresult;

/**
 * One GPU's primary context, retained for the life of a {@link CudaDevice} and of everything made in it (the same
 * context the CUDA runtime, and so PyTorch or other libraries in the process, use: memory and events are shared with
 * them).
 *
 * <p><b>Ownership:</b> one retain of the primary context, kept while anything holds this object: its owner (until
 * {@link #close()}, which unloads the kernel module before) and each live resource made in it (device and pinned
 * blocks, streams, events: {@link #hold()} before creating one, {@link #drop()} after destroying it). So a resource that outlives the device's
 * close is still freed in its context when it is closed, and the retain goes with the last of them: released at once
 * it would leave their memory allocated for good while another library keeps the context alive, or, with nobody
 * else, have the driver free pinned memory an off-heap pool is still handing out.
 *
 * <p><b>Threads:</b> a CUDA context is current per thread. {@link #makeCurrent()} binds it to the calling thread;
 * every public entry point of cuda-staging calls it first, so any thread may use the device. It is a driver
 * thread-local write (no allocation, no lock), cheap next to the call it precedes. Holds are taken and dropped under
 * this object's lock: on resource creation and destruction only, never per batch.
 */
final class CudaContext {
    private final DriverApi driver;
    private final CUdevice device;
    private final CUcontext context;
    private final String name;
    private final int multiprocessors;
    /** Set once by {@link #close()}; volatile so every thread's next call sees it and refuses new work. */
    private volatile boolean closed;
    /** The owner's hold (until close) plus one per live resource; the retain is released with the last. */
    private long holds = 1; // guarded by this

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
                ctx.close();
            } catch (RuntimeException | Error releaseFailure) {
                e.addSuppressed(releaseFailure);
            }
            throw e;
        }
        return ctx;
    }

    /**
     * Binds the context to the calling thread, for new work.
     *
     * @throws DeviceClosedException once {@link #close()} ran
     */
    void makeCurrent() {
        if (closed) {
            throw new DeviceClosedException(name + " is closed");
        }
        bind();
    }

    /**
     * Binds the context to the calling thread to destroy a resource made in it, also after {@link #close()}: the
     * resource's hold keeps the context retained until {@link #drop()}.
     */
    void makeCurrentToFree() {
        bind();
    }

    private void bind() {
        CudaCalls.check(driver.ctxSetCurrent(context), "cuCtxSetCurrent", this);
    }

    /**
     * Takes a hold for a resource about to be created; call {@link #drop()} once it is destroyed (or could not be
     * created).
     *
     * @throws DeviceClosedException once {@link #close()} ran: nothing new is made in a closed device
     */
    synchronized void hold() {
        if (closed) {
            throw new DeviceClosedException(name + " is closed");
        }
        holds++;
    }

    /**
     * Drops a hold; the last one releases the primary context (the driver destroys it, and frees all it holds, when
     * the last retain in the process goes).
     *
     * @throws CudaDriverException when the release fails
     */
    void drop() {
        synchronized (this) {
            if (holds <= 0) {
                throw new IllegalStateException("context of " + name + " dropped more often than held");
            }
            if (--holds > 0) {
                return;
            }
        }
        CudaCalls.check(driver.primaryCtxRelease(device), "cuDevicePrimaryCtxRelease", this);
    }

    /**
     * Drops a hold at the end of a create or destroy that may have failed: after a failure, a failing drop is
     * suppressed on it (so this never hides the first error); after none, a failing drop throws.
     *
     * @param failure what the create or destroy threw, or null
     */
    void drop(Throwable failure) {
        try {
            drop();
        } catch (RuntimeException | Error e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    /**
     * Closes the context for new work ({@link #makeCurrent()} and {@link #hold()} throw from now on) and drops the
     * owner's hold: the retain is released now, or when the last resource still made in it is destroyed.
     *
     * @return true when this call closed it; false when it was closed already (and did nothing)
     * @throws CudaDriverException when the release fails
     */
    boolean close() {
        synchronized (this) {
            if (closed) {
                return false;
            }
            closed = true;
        }
        drop();
        return true;
    }

    /** {@return true once {@link #close()} ran: no new work; resources made before may still hold the context} */
    boolean isClosed() {
        return closed;
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
