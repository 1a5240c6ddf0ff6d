/**
 * Typed views of off-heap memory: {@link org.spdl4j.offheap.tensor.DType}, {@link org.spdl4j.offheap.tensor.Tensor}
 * (shape and strides over a lease), {@link org.spdl4j.offheap.tensor.BatchDescriptor} (a batch as one contiguous
 * NHWC or NCHW tensor) and NumPy {@code .npy} reading and writing ({@link org.spdl4j.offheap.tensor.NpyFormat}).
 */
package org.spdl4j.offheap.tensor;
