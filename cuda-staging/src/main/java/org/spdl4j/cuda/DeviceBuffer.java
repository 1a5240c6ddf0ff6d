package org.spdl4j.cuda;

/**
 * A block of device memory from a {@link Device}'s pool (on {@link HostDevice}, a block of host memory).
 *
 * <p><b>Ownership:</b> one owner. {@link #close()} returns the block to the pool, where the next
 * {@link Device#allocate} may hand it out at once: close only after every device operation that reads or writes it
 * has completed (synchronize the stream that used it, or an event recorded after that use). Not thread-safe.
 */
public interface DeviceBuffer extends AutoCloseable {
    /** {@return the device address of the first byte (a host address on {@link HostDevice})} */
    long address();

    /** {@return the size asked for, in bytes} */
    long byteSize();

    /** {@return the size of the underlying block (its size class), at least {@link #byteSize()}} */
    long capacity();

    /** Returns the block to its pool. Closing twice is an error reported by an {@link IllegalStateException}. */
    @Override
    void close();
}
