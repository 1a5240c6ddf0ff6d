package org.spdl4j.cuda;

import static jcuda.driver.JCudaDriver.CU_MEMHOSTALLOC_DEVICEMAP;
import static jcuda.driver.JCudaDriver.CU_MEMHOSTALLOC_PORTABLE;

import java.util.concurrent.ConcurrentHashMap;
import jcuda.driver.CUresult;
import org.spdl4j.offheap.MemoryAllocator;

/**
 * Page-locked (pinned) host memory from {@code cuMemHostAlloc}, for the off-heap pool's slabs: a copy from it to the
 * device is DMA the copy engine runs asynchronously, with no staging copy by the driver. Allocated
 * {@code CU_MEMHOSTALLOC_PORTABLE} (pinned for every context in the process), and optionally
 * {@code CU_MEMHOSTALLOC_DEVICEMAP} (mapped: kernels may read it directly, see {@link #devicePointer}).
 *
 * <p><b>Threads:</b> thread-safe; each call makes the device's context current on the calling thread.
 * <b>Cost:</b> pinning takes milliseconds per block and pinned memory is taken from the OS for good, so allocate
 * large slabs once (the pool does) and never per batch. Alignment up to the page size (4 KiB) comes for free;
 * larger alignments over-allocate by the alignment.
 * <b>Ownership:</b> {@link #free} must get an address this allocator returned; blocks still allocated when the
 * device closes are reported by {@link LiveResourceCounters#hostBlocks()}, stay valid, and are freed by {@link #free}
 * as before (each keeps the GPU context retained until then).
 */
public final class CudaPinnedAllocator implements MemoryAllocator {
    private static final long PAGE = 4096;

    private final CudaContext context;
    private final LiveResourceCounters counters;
    private final boolean deviceMapped;
    /** Aligned address handed out -> the address cuMemHostAlloc returned (needed to free it). */
    private final ConcurrentHashMap<Long, Long> blocks = new ConcurrentHashMap<>();

    CudaPinnedAllocator(CudaContext context, LiveResourceCounters counters, boolean deviceMapped) {
        this.context = context;
        this.counters = counters;
        this.deviceMapped = deviceMapped;
    }

    @Override
    public long allocate(long bytes, int alignment) {
        if (bytes <= 0 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException(name() + ": bad size " + bytes + " or alignment " + alignment);
        }
        long extra = alignment > PAGE ? alignment : 0;
        int flags = CU_MEMHOSTALLOC_PORTABLE | (deviceMapped ? CU_MEMHOSTALLOC_DEVICEMAP : 0);
        long[] base = new long[1]; // slabs only, never per batch
        context.hold(); // the block keeps the context retained until it is freed, also past the device's close
        try {
            context.makeCurrent();
            int r = context.driver().memHostAlloc(base, bytes + extra, flags);
            if (r == CUresult.CUDA_ERROR_OUT_OF_MEMORY) {
                throw new OutOfMemoryError(name() + ": cuMemHostAlloc(" + (bytes + extra) + " bytes) on "
                        + context.name() + " failed: CUDA_ERROR_OUT_OF_MEMORY (pinned memory is limited by RAM and "
                        + "ulimit -l; use a smaller pool)");
            }
            CudaCalls.check(r, "cuMemHostAlloc", bytes + extra, context);
        } catch (RuntimeException | Error e) {
            context.drop(e);
            throw e;
        }
        long aligned = (base[0] + alignment - 1) & -(long) alignment;
        blocks.put(aligned, base[0]);
        counters.hostBlock(bytes, +1);
        return aligned;
    }

    @Override
    public void free(long address, long bytes, int alignment) {
        Long base = blocks.remove(address);
        if (base == null) {
            throw new IllegalArgumentException(name() + ": 0x" + Long.toHexString(address) + " was not allocated here");
        }
        counters.hostBlock(bytes, -1);
        Throwable failure = null;
        try {
            context.makeCurrentToFree();
            CudaCalls.check(context.driver().memFreeHost(base), "cuMemFreeHost", base, bytes, context);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            context.drop(failure); // also when the free failed: it is not tried again
        }
    }

    /**
     * The device address of mapped pinned memory, for kernels that read host memory directly (zero-copy).
     *
     * @param hostAddress an address inside a block from {@link #allocate}
     * @return the device address of the same byte
     * @throws IllegalStateException when this allocator does not map ({@link DeviceOptions#pinnedDeviceMap()})
     */
    public long devicePointer(long hostAddress) {
        if (!deviceMapped) {
            throw new IllegalStateException(name() + " was created without CU_MEMHOSTALLOC_DEVICEMAP (open the device"
                    + " with DeviceOptions.withPinnedDeviceMap(true))");
        }
        long[] device = new long[1];
        context.makeCurrent();
        CudaCalls.check(context.driver().memHostGetDevicePointer(device, hostAddress), "cuMemHostGetDevicePointer",
                hostAddress, 0, context);
        return device[0];
    }

    @Override
    public String name() {
        return deviceMapped ? "cuda-pinned-mapped" : "cuda-pinned";
    }

    @Override
    public boolean isPinned() {
        return true;
    }
}
