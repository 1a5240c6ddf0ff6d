package org.spdl4j.cuda;

/**
 * A {@link DeviceBuffer} whose block belongs to a {@link DeviceBufferPool}. The same object is handed out again
 * with its block, so a reference kept after {@link #close()} may later see another owner's data: one owner, no
 * use after close.
 *
 * <p>Not thread-safe; the pool's lock orders one owner's close before the next owner's lease.
 */
final class PooledDeviceBuffer implements DeviceBuffer {
    private final DeviceBufferPool pool;
    private final long address;
    private final long capacity;
    private final int classIndex;
    private long byteSize;
    private boolean leased;

    PooledDeviceBuffer(DeviceBufferPool pool, long address, long capacity, int classIndex) {
        this.pool = pool;
        this.address = address;
        this.capacity = capacity;
        this.classIndex = classIndex;
    }

    void lease(long bytes) {
        this.byteSize = bytes;
        this.leased = true;
    }

    int classIndex() {
        return classIndex;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public long byteSize() {
        return byteSize;
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public void close() {
        if (!leased) {
            throw new IllegalStateException("device buffer 0x" + Long.toHexString(address) + " closed twice");
        }
        leased = false;
        pool.release(this);
    }

    @Override
    public String toString() {
        return "DeviceBuffer[0x" + Long.toHexString(address) + ", " + byteSize + " of " + capacity + " B]";
    }
}
