package org.spdl4j.cuda;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.MemoryAllocator;

/**
 * The {@link Device} of a machine without a usable GPU: "device" memory is native host memory, copies are
 * {@code memcpy} on the calling thread, events are complete as soon as they are recorded, and the normalize kernel is
 * a Java loop. Every pipeline and test that runs on a GPU runs here unchanged, only without the GPU.
 *
 * <p>Memory: both the host allocator (for the batch pool) and the "device" buffers come from off-heap's
 * {@link DirectMemoryAllocator}, the same native memory a pool uses by default; this class adds only the counting.
 *
 * <p>Thread-safe. Copies and the kernel run synchronously on the caller's thread (they block for the copy).
 */
public final class HostDevice implements Device {
    private static final Logger LOG = LoggerFactory.getLogger(HostDevice.class);
    private static final int BLOCK_ALIGNMENT = 256; // the alignment cuMemAlloc gives, so layouts match the GPU path

    private final LiveResourceCounters counters = new LiveResourceCounters();
    private final MemoryAllocator hostAllocator = new CountingHostAllocator(DirectMemoryAllocator.INSTANCE, counters);
    private final DeviceBufferPool pool;

    /**
     * Creates a host device with the default pool cap ({@link CudaConfiguration#POOL_MAX_CACHED_DEFAULT}).
     */
    public HostDevice() {
        this(CudaConfiguration.POOL_MAX_CACHED_DEFAULT);
    }

    /**
     * Creates a host device.
     *
     * @param maxCachedBytes free "device" memory the buffer pool keeps for reuse
     */
    public HostDevice(long maxCachedBytes) {
        RawDeviceMemory raw = new RawDeviceMemory() {
            @Override
            public long allocate(long bytes) {
                return DirectMemoryAllocator.INSTANCE.allocate(bytes, BLOCK_ALIGNMENT);
            }

            @Override
            public void free(long address, long bytes) {
                DirectMemoryAllocator.INSTANCE.free(address, bytes, BLOCK_ALIGNMENT);
            }
        };
        this.pool = new DeviceBufferPool("host", raw, counters, maxCachedBytes);
    }

    @Override
    public String name() {
        return "host";
    }

    @Override
    public boolean isGpu() {
        return false;
    }

    @Override
    public MemoryAllocator hostAllocator() {
        return hostAllocator;
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        return pool.acquire(bytes);
    }

    @Override
    public DeviceStream createStream() {
        return new HostStream(counters);
    }

    @Override
    public DeviceEvent createEvent() {
        return new HostEvent(counters);
    }

    @Override
    public void copyToDevice(long hostAddress, DeviceBuffer dst, long bytes, DeviceStream stream) {
        checkRange(dst, bytes);
        NativeMemory.copy(hostAddress, dst.address(), bytes);
    }

    @Override
    public void copyToHost(DeviceBuffer src, long hostAddress, long bytes, DeviceStream stream) {
        checkRange(src, bytes);
        NativeMemory.copy(src.address(), hostAddress, bytes);
    }

    private static void checkRange(DeviceBuffer buffer, long bytes) {
        if (bytes < 0 || bytes > buffer.byteSize()) {
            throw new IllegalArgumentException("copy of " + bytes + " B does not fit " + buffer);
        }
    }

    @Override
    public NormalizeKernel normalizeKernel() {
        return HostNormalizeKernel.INSTANCE;
    }

    @Override
    public LiveResourceCounters counters() {
        return counters;
    }

    @Override
    public void close() {
        pool.close();
        if (!counters.allReleased()) {
            LOG.error("host device closed with resources still live: {}", counters);
        }
    }

    @Override
    public String toString() {
        return "HostDevice[" + counters + "]";
    }
}
