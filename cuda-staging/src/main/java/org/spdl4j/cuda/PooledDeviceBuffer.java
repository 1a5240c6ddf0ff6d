package org.spdl4j.cuda;

/**
 * One lease of a {@link PooledDeviceBlock}: what {@link DeviceBufferPool#acquire} hands out. A new object per lease
 * (one small allocation per batch, not per item), so a second {@link #close()} by the same owner fails even after the
 * pool gave the block to someone else, instead of returning the new owner's block (a reused handle could not tell
 * the two closes apart). A reference kept after close still reads the block's address: no use after close.
 *
 * <p>Not thread-safe: one owner.
 */
final class PooledDeviceBuffer implements DeviceBuffer {
    private final DeviceBufferPool pool;
    private final PooledDeviceBlock block;
    private final long byteSize;
    private boolean closed;

    PooledDeviceBuffer(DeviceBufferPool pool, PooledDeviceBlock block, long byteSize) {
        this.pool = pool;
        this.block = block;
        this.byteSize = byteSize;
    }

    @Override
    public long address() {
        return block.address;
    }

    @Override
    public long byteSize() {
        return byteSize;
    }

    @Override
    public long capacity() {
        return block.capacity;
    }

    @Override
    public void close() {
        if (closed) {
            throw new IllegalStateException("device buffer 0x" + Long.toHexString(block.address) + " closed twice");
        }
        closed = true;
        pool.release(block);
    }

    @Override
    public String toString() {
        return "DeviceBuffer[0x" + Long.toHexString(block.address) + ", " + byteSize + " of " + block.capacity + " B]";
    }
}
