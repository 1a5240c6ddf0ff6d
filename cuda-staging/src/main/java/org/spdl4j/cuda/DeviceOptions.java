package org.spdl4j.cuda;

/**
 * How a {@link Device} is opened ({@link DeviceDiscovery#open(String, int, DeviceOptions)},
 * {@link CudaDevice#open(int, DeviceOptions)}): start from {@link #defaults()} and change what differs.
 *
 * <p>Immutable and thread safe.
 *
 * @param maxCachedBytes  free device memory the device's buffer pool keeps for reuse, at least 0; a process that
 *                        shares the GPU with a training framework's own caching allocator may want less
 * @param pinnedDeviceMap whether pinned host memory is also mapped into the device's address space, for kernels that
 *                        read host memory directly ({@link CudaPinnedAllocator#devicePointer}); ignored on the host
 */
public record DeviceOptions(long maxCachedBytes, boolean pinnedDeviceMap) {
    /**
     * Checks the options.
     *
     * @param maxCachedBytes  free device memory kept for reuse
     * @param pinnedDeviceMap whether pinned host memory is mapped into the device
     * @throws IllegalArgumentException when {@code maxCachedBytes} is negative
     */
    public DeviceOptions {
        if (maxCachedBytes < 0) {
            throw new IllegalArgumentException("maxCachedBytes must be >= 0, got " + maxCachedBytes);
        }
    }

    /**
     * {@return the defaults: {@link CudaConfiguration#POOL_MAX_CACHED_DEFAULT} (2 GiB) cached, pinned memory not
     * mapped ({@link CudaConfiguration#PINNED_DEVICE_MAP_DEFAULT})}
     */
    public static DeviceOptions defaults() {
        return new DeviceOptions(CudaConfiguration.POOL_MAX_CACHED_DEFAULT,
                CudaConfiguration.PINNED_DEVICE_MAP_DEFAULT);
    }

    /**
     * {@return these options with another cache bound}
     *
     * @param bytes free device memory the buffer pool keeps for reuse, at least 0
     */
    public DeviceOptions withMaxCachedBytes(long bytes) {
        return new DeviceOptions(bytes, pinnedDeviceMap);
    }

    /**
     * {@return these options with pinned host memory mapped into the device, or not}
     *
     * @param mapped whether pinned host memory is also mapped into the device's address space
     */
    public DeviceOptions withPinnedDeviceMap(boolean mapped) {
        return new DeviceOptions(maxCachedBytes, mapped);
    }
}
