package org.spdl4j.cuda;

import java.util.Arrays;
import org.spdl4j.offheap.CleanupFailures;

/**
 * Device buffers reused by size class ({@link SizeClasses}): a closed buffer goes back to its class's free stack
 * and the next request of that class takes it without touching the driver. Cached bytes are capped; beyond the cap
 * a returned buffer is freed.
 *
 * <p><b>Threads:</b> thread-safe. Acquire and release take one short uncontended lock (a push or pop on an array
 * stack); acquire allocates one small handle per lease ({@link PooledDeviceBuffer}), so a stale second close is
 * caught rather than returning the block's next owner's memory; the copy stage does this once per batch, about a millisecond apart, so a lock-free
 * structure would buy nothing measurable. The driver call on a miss runs outside the lock.
 * <b>Errors:</b> on CUDA_ERROR_OUT_OF_MEMORY the pool frees its cached blocks and tries once more.
 */
final class DeviceBufferPool implements AutoCloseable {
    private final String owner;
    private final RawDeviceMemory raw;
    private final LiveResourceCounters counters;
    private final long maxCachedBytes;
    private final Object lock = new Object();
    /** Free stacks, one per size class, created on first return; guarded by {@link #lock}. */
    private final PooledDeviceBlock[][] free = new PooledDeviceBlock[SizeClasses.COUNT][];
    private final int[] freeCount = new int[SizeClasses.COUNT];
    private long cachedBytes;
    private boolean closed;

    DeviceBufferPool(String owner, RawDeviceMemory raw, LiveResourceCounters counters, long maxCachedBytes) {
        this.owner = owner;
        this.raw = raw;
        this.counters = counters;
        this.maxCachedBytes = maxCachedBytes;
    }

    DeviceBuffer acquire(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("device buffer size must be > 0, got " + bytes + " on " + owner);
        }
        int index = SizeClasses.indexOf(bytes);
        PooledDeviceBlock block = null;
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("device buffer pool of " + owner + " is closed");
            }
            if (freeCount[index] > 0) {
                block = free[index][--freeCount[index]];
                free[index][freeCount[index]] = null;
                cachedBytes -= block.capacity;
            }
        }
        if (block == null) {
            block = allocateNew(index, SizeClasses.sizeOf(bytes));
        }
        counters.bufferLeased(+1);
        return new PooledDeviceBuffer(this, block, bytes); // a handle per lease: a stale close is caught
    }

    private PooledDeviceBlock allocateNew(int index, long capacity) {
        long address;
        try {
            address = raw.allocate(capacity);
        } catch (CudaDriverException e) {
            int trimmed;
            try {
                trimmed = trim();
            } catch (RuntimeException | Error trimFailure) {
                // One free failed, but trim frees the others first: try once more all the same, and keep the
                // failure with the out-of-memory error if that does not do.
                e.addSuppressed(trimFailure);
                trimmed = -1;
            }
            if (trimmed == 0) {
                throw e;
            }
            try {
                address = raw.allocate(capacity); // once more, now that the cached blocks are back with the driver
            } catch (CudaDriverException again) {
                again.addSuppressed(e);
                throw again;
            }
        }
        counters.deviceAllocated(capacity, +1);
        return new PooledDeviceBlock(address, capacity, index);
    }

    void release(PooledDeviceBlock block) {
        counters.bufferLeased(-1);
        int index = block.classIndex;
        synchronized (lock) {
            if (!closed && cachedBytes + block.capacity <= maxCachedBytes) {
                PooledDeviceBlock[] stack = free[index];
                if (stack == null || freeCount[index] == stack.length) {
                    stack = free[index] = stack == null ? new PooledDeviceBlock[4] : Arrays.copyOf(stack, stack.length * 2);
                }
                stack[freeCount[index]++] = block;
                cachedBytes += block.capacity;
                return;
            }
        }
        destroy(block);
    }

    /**
     * Frees every cached block. A block whose free fails does not stop the others: every one is tried (they are
     * already out of the cache), and the first failure is thrown with the later ones suppressed on it.
     *
     * @return how many blocks were freed
     */
    int trim() {
        PooledDeviceBlock[] victims;
        int n = 0;
        synchronized (lock) {
            int total = 0;
            for (int c : freeCount) {
                total += c;
            }
            victims = new PooledDeviceBlock[total];
            for (int i = 0; i < free.length; i++) {
                for (int j = 0; j < freeCount[i]; j++) {
                    victims[n++] = free[i][j];
                    free[i][j] = null;
                }
                freeCount[i] = 0;
            }
            cachedBytes = 0;
        }
        CleanupFailures failures = new CleanupFailures();
        for (PooledDeviceBlock b : victims) {
            failures.run(() -> destroy(b));
        }
        failures.rethrow();
        return n;
    }

    private void destroy(PooledDeviceBlock block) {
        raw.free(block.address, block.capacity);
        counters.deviceAllocated(block.capacity, -1);
    }

    /** Frees the cached blocks; buffers still leased are freed when they are closed. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        trim();
    }
}
