/**
 * spdl4j cuda-staging: the last hop of the pipeline, host batches to the GPU.
 *
 * <ul>
 *   <li>{@link org.spdl4j.cuda.DeviceDiscovery} opens a {@link org.spdl4j.cuda.Device}: a
 *       {@link org.spdl4j.cuda.CudaDevice} (JCuda driver API) or, with no driver or GPU, a
 *       {@link org.spdl4j.cuda.HostDevice} with the same interface in host memory.</li>
 *   <li>{@link org.spdl4j.cuda.Device#hostAllocator()} backs the off-heap pool with pinned memory
 *       ({@link org.spdl4j.cuda.CudaPinnedAllocator}).</li>
 *   <li>{@link org.spdl4j.cuda.HostToDeviceTransfer} is the copy stage: {@link org.spdl4j.cuda.HostBatch} in,
 *       {@link org.spdl4j.cuda.DeviceBatch} (device memory + ready event) out, K copies in flight on K streams.</li>
 *   <li>{@link org.spdl4j.cuda.NormalizeKernel} is the example consumer kernel (uint8 NHWC to float32 NCHW).</li>
 *   <li>{@link org.spdl4j.cuda.CudaConfiguration} names every default (and reads {@code spdl4j.cuda.mode} and
 *       {@code spdl4j.cuda.device}); {@link org.spdl4j.cuda.DeviceOptions} says how a device is opened;
 *       {@link org.spdl4j.cuda.LiveResourceCounters} counts what is live for leak checks.</li>
 * </ul>
 */
package org.spdl4j.cuda;
