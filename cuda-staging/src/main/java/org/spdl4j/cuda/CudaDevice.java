package org.spdl4j.cuda;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.offheap.CleanupFailures;
import org.spdl4j.offheap.MemoryAllocator;

/**
 * A GPU through JCuda's driver API ({@code JCudaDriver}; needs only the NVIDIA driver's {@code libcuda.so.1}, no
 * CUDA toolkit). Holds the GPU's retained primary context, a device buffer pool, a pinned host allocator and, loaded
 * on first use, the normalize kernel. Obtain through {@link DeviceDiscovery}, which checks the driver first.
 *
 * <p><b>Threads:</b> thread-safe; every call makes the primary context current on the calling thread.
 * <b>Blocking:</b> copies and launches are queued on the given stream and return; {@link #freeMemory()} and
 * {@link #close()} talk to the driver synchronously. <b>Errors:</b> every driver result is checked; a failure is a
 * {@link CudaDriverException} with the CUDA error name and the operation.
 */
public final class CudaDevice implements Device {
    private static final Logger LOG = LoggerFactory.getLogger(CudaDevice.class);

    private final CudaContext context;
    private final LiveResourceCounters counters = new LiveResourceCounters();
    private final CudaPinnedAllocator pinned;
    private final DeviceBufferPool pool;
    private CudaNormalizeKernel kernel; // guarded by this; loaded on first use (the JIT takes milliseconds)

    private CudaDevice(CudaContext context, long maxCachedBytes, boolean mapPinned) {
        this.context = context;
        this.pinned = new CudaPinnedAllocator(context, counters, mapPinned);
        this.pool = new DeviceBufferPool(context.name(), new RawDeviceMemory() {
            @Override
            public long allocate(long bytes) {
                long[] address = new long[1]; // pool misses only
                context.hold(); // the block keeps the context retained until it is freed, also past close
                try {
                    context.makeCurrent();
                    CudaCalls.check(context.driver().memAlloc(address, bytes), "cuMemAlloc", bytes, context);
                } catch (RuntimeException | Error e) {
                    context.drop(e);
                    throw e;
                }
                return address[0];
            }

            @Override
            public void free(long address, long bytes) {
                Throwable failure = null;
                try {
                    context.makeCurrentToFree();
                    CudaCalls.check(context.driver().memFree(address), "cuMemFree", address, bytes, context);
                } catch (RuntimeException | Error e) {
                    failure = e;
                    throw e;
                } finally {
                    context.drop(failure); // also when the free failed: it is not tried again
                }
            }
        }, counters, maxCachedBytes);
    }

    /**
     * Opens a GPU with the default options ({@link DeviceOptions#defaults()}). The driver must be initialized
     * ({@link DeviceDiscovery#probe()} does it); prefer {@link DeviceDiscovery#open()}.
     *
     * @param ordinal GPU index
     * @return the device, owning a retain of the primary context until closed
     * @throws CudaDriverException when the driver refuses (no such device, ...)
     */
    public static CudaDevice open(int ordinal) {
        return open(ordinal, DeviceOptions.defaults());
    }

    /**
     * Opens a GPU. The driver must be initialized ({@link DeviceDiscovery#probe()} does it); prefer
     * {@link DeviceDiscovery#open(String, int, DeviceOptions)}.
     *
     * @param ordinal GPU index
     * @param options the buffer pool's cache bound and whether pinned host memory is mapped into the device
     * @return the device, owning a retain of the primary context until closed
     * @throws CudaDriverException when the driver refuses (no such device, ...)
     */
    public static CudaDevice open(int ordinal, DeviceOptions options) {
        return open(JCudaDriverApi.INSTANCE, ordinal, options.maxCachedBytes(), options.pinnedDeviceMap());
    }

    /**
     * Opens a GPU through the given driver calls (tests pass a fake driver).
     *
     * @param driver         the driver calls
     * @param ordinal        GPU index
     * @param maxCachedBytes free device memory the buffer pool keeps for reuse
     * @param mapPinned      whether pinned host memory is also mapped into the device's address space
     * @return the device, owning a retain of the primary context until closed
     */
    static CudaDevice open(DriverApi driver, int ordinal, long maxCachedBytes, boolean mapPinned) {
        return new CudaDevice(CudaContext.retainPrimary(driver, ordinal), maxCachedBytes, mapPinned);
    }

    @Override
    public String name() {
        return context.name();
    }

    @Override
    public boolean isGpu() {
        return true;
    }

    /** {@return the pinned allocator ({@code cuMemHostAlloc}, portable, optionally mapped)} */
    @Override
    public MemoryAllocator hostAllocator() {
        return pinned;
    }

    /** {@return the pinned allocator with its CUDA-only extras (mapped device pointers)} */
    public CudaPinnedAllocator pinnedAllocator() {
        return pinned;
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        return pool.acquire(bytes);
    }

    @Override
    public DeviceStream createStream() {
        return new CudaStream(context, counters);
    }

    @Override
    public DeviceEvent createEvent() {
        return new CudaEvent(context, counters, false);
    }

    /** {@return a new event that records timestamps, for {@link #elapsedMillis}} */
    public DeviceEvent createTimingEvent() {
        return new CudaEvent(context, counters, true);
    }

    /**
     * Device time between two completed timing events.
     *
     * @param start from {@link #createTimingEvent()}, recorded first
     * @param end   from {@link #createTimingEvent()}, recorded later and complete
     * @return milliseconds
     */
    public float elapsedMillis(DeviceEvent start, DeviceEvent end) {
        return CudaEvent.elapsedMillis(CudaEvent.of(start, context), CudaEvent.of(end, context));
    }

    @Override
    public void copyToDevice(long hostAddress, DeviceBuffer dst, long bytes, DeviceStream stream) {
        checkRange(dst, bytes);
        CudaStream s = CudaStream.of(stream, context);
        context.makeCurrent();
        CudaCalls.check(context.driver().memcpyHtoDAsync(dst.address(), hostAddress, bytes, s.handle),
                "cuMemcpyHtoDAsync", dst.address(), bytes, context);
    }

    @Override
    public void copyToHost(DeviceBuffer src, long hostAddress, long bytes, DeviceStream stream) {
        checkRange(src, bytes);
        CudaStream s = CudaStream.of(stream, context);
        context.makeCurrent();
        CudaCalls.check(context.driver().memcpyDtoHAsync(hostAddress, src.address(), bytes, s.handle),
                "cuMemcpyDtoHAsync", src.address(), bytes, context);
    }

    private static void checkRange(DeviceBuffer buffer, long bytes) {
        if (bytes < 0 || bytes > buffer.byteSize()) {
            throw new IllegalArgumentException("copy of " + bytes + " B does not fit " + buffer);
        }
    }

    @Override
    public synchronized NormalizeKernel normalizeKernel() {
        if (kernel == null) {
            kernel = new CudaNormalizeKernel(context);
        }
        return kernel;
    }

    /** {@return free device memory in bytes, as cuMemGetInfo reports it (all processes)} */
    public long freeMemory() {
        return memInfo()[0];
    }

    /** {@return total device memory in bytes} */
    public long totalMemory() {
        return memInfo()[1];
    }

    private long[] memInfo() {
        long[] free = new long[1];
        long[] total = new long[1];
        context.makeCurrent();
        CudaCalls.check(context.driver().memGetInfo(free, total), "cuMemGetInfo", context);
        return new long[] {free[0], total[0]};
    }

    /**
     * Makes this GPU's primary context current on the calling thread, for code that calls {@code JCudaDriver}
     * itself (benchmarks, interop).
     */
    public void makeCurrent() {
        context.makeCurrent();
    }

    /** {@return live counts of what this device has handed out} */
    @Override
    public LiveResourceCounters counters() {
        return counters;
    }

    /**
     * Frees the pooled device memory, unloads the kernel module and releases the primary context. Anything still
     * live (buffers, streams, events, pinned blocks) is logged and refuses new work, but closing it later still
     * frees it: the primary context stays retained until the last of them is freed. Every step is tried; the first
     * failure is thrown with the later ones suppressed on it. Closing again does nothing.
     */
    @Override
    public synchronized void close() {
        if (context.isClosed()) {
            return;
        }
        CleanupFailures failures = new CleanupFailures();
        failures.run(pool::close);
        if (kernel != null) {
            failures.run(kernel::unload);
        }
        failures.run(context::close); // no new work; the retain goes now, or with the last resource still live
        if (!counters.allReleased()) {
            LOG.error("{} closed with resources still live: {}; the GPU context stays retained until they are closed",
                    name(), counters);
        }
        failures.rethrow();
    }

    @Override
    public String toString() {
        return "CudaDevice[" + name() + ", " + counters + "]";
    }
}
