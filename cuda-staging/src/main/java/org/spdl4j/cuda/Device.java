package org.spdl4j.cuda;

import org.spdl4j.offheap.MemoryAllocator;

/**
 * Where batches go to be consumed: a GPU ({@link CudaDevice}) or, on a machine without one, host memory
 * ({@link HostDevice}) behind the same interface, so pipelines and tests run unchanged on CPU-only machines.
 * Get one from {@link DeviceDiscovery#open()}.
 *
 * <p><b>Threads:</b> all methods are thread-safe. On a GPU, each call makes the device's primary context current
 * on the calling thread first, so any thread may call. <b>Blocking:</b> only the methods that say so block; the
 * copy methods queue work on a stream and return. <b>Errors:</b> a driver failure is a {@link CudaDriverException}
 * naming the operation and the CUDA error. <b>Ownership:</b> everything a device hands out (buffers, streams,
 * events) must be closed before the device; {@link #counters()} shows what is still live.
 */
public interface Device extends AutoCloseable {
    /** {@return a short description for logs, such as "cuda:0 NVIDIA H200" or "host"} */
    String name();

    /** {@return true for a GPU; false for the host fallback} */
    boolean isGpu();

    /**
     * {@return the allocator the host batch pool should use: page-locked (pinned) memory on a GPU, so copies are
     * asynchronous DMA; plain native memory on the host}
     */
    MemoryAllocator hostAllocator();

    /**
     * Takes a buffer of at least {@code bytes} from the device pool (reused by size class; allocates only when the
     * class is empty). Not zeroed.
     *
     * @param bytes size in bytes, greater than zero
     * @return the buffer, owned by the caller
     * @throws CudaDriverException when the device memory cannot be had (CUDA_ERROR_OUT_OF_MEMORY)
     */
    DeviceBuffer allocate(long bytes);

    /** {@return a new stream that does not synchronize with the legacy default stream} */
    DeviceStream createStream();

    /** {@return a new event (no timing; waits on it sleep rather than spin)} */
    DeviceEvent createEvent();

    /**
     * Queues a copy of {@code bytes} from host memory to the start of {@code dst} on {@code stream}. The host memory
     * must stay valid and unchanged until the copy has completed (record an event after it). From pinned memory the
     * copy is asynchronous DMA; from pageable memory the driver stages it and the call may block.
     *
     * @param hostAddress source address in host memory
     * @param dst         destination buffer, at least {@code bytes} long
     * @param bytes       how many bytes
     * @param stream      stream to queue the copy on
     */
    void copyToDevice(long hostAddress, DeviceBuffer dst, long bytes, DeviceStream stream);

    /**
     * Queues a copy of {@code bytes} from the start of {@code src} to host memory on {@code stream}; the host bytes
     * are valid once the stream (or an event recorded after the copy) has completed.
     *
     * @param src         source buffer
     * @param hostAddress destination address in host memory
     * @param bytes       how many bytes
     * @param stream      stream to queue the copy on
     */
    void copyToHost(DeviceBuffer src, long hostAddress, long bytes, DeviceStream stream);

    /** {@return the example normalization kernel (uint8 NHWC to float32 NCHW) for this device} */
    NormalizeKernel normalizeKernel();

    /** {@return live counts of what this device has handed out, for leak checks} */
    LiveResourceCounters counters();

    /**
     * Frees the pooled buffers and the device's own resources. Buffers, streams, events and host-allocator blocks
     * still held by callers are reported (log and {@link #counters()}) and refuse new work, but stay valid until
     * closed (freed) by their holders; on a GPU the context is released with the last of them.
     */
    @Override
    void close();
}
