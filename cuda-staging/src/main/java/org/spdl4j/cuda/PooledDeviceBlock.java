package org.spdl4j.cuda;

/**
 * One block of device memory owned by a {@link DeviceBufferPool}: its address, its capacity (a size class) and the
 * class it goes back to. Blocks are reused; each lease of one is a new {@link PooledDeviceBuffer}, so an owner that
 * closes its buffer twice is told so even after the block went to someone else.
 *
 * <p>Immutable; the pool's lock orders one lease's close before the next lease of the block.
 */
final class PooledDeviceBlock {
    final long address;
    final long capacity;
    final int classIndex;

    PooledDeviceBlock(long address, long capacity, int classIndex) {
        this.address = address;
        this.capacity = capacity;
        this.classIndex = classIndex;
    }

    @Override
    public String toString() {
        return "device block 0x" + Long.toHexString(address) + " (" + capacity + " B)";
    }
}
