package org.spdl4j.cuda;

/**
 * The allocator behind a {@link DeviceBufferPool}: cuMemAlloc/cuMemFree on a GPU, native malloc/free on the host.
 * Called only on pool misses and trims, never per batch in steady state. Implementations are thread-safe.
 */
interface RawDeviceMemory {
    /**
     * Allocates a block.
     *
     * @param bytes size in bytes
     * @return its device address
     * @throws CudaDriverException when the driver refuses (CUDA_ERROR_OUT_OF_MEMORY)
     */
    long allocate(long bytes);

    /**
     * Frees a block from {@link #allocate}.
     *
     * @param address its address
     * @param bytes   its size
     */
    void free(long address, long bytes);
}
