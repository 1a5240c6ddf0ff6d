/**
 * spdl4j off-heap memory: everything a data loader needs to keep samples and batches off the Java heap, allocated
 * once and reused.
 *
 * <ul>
 *   <li>{@link org.spdl4j.offheap.BufferPool} (opened from a {@link org.spdl4j.offheap.PoolConfig}): preallocated
 *       aligned slabs in size classes, lock-free MPMC free lists, bounded waits (back-pressure), stats.</li>
 *   <li>{@link org.spdl4j.offheap.Lease}: a reference-counted slab, with {@code address()} and an Agrona
 *       {@code UnsafeBuffer} view for writers (decoders, GPU copies).</li>
 *   <li>{@link org.spdl4j.offheap.MemoryAllocator}: where slabs come from;
 *       {@link org.spdl4j.offheap.DirectMemoryAllocator} by default, CUDA pinned memory from cuda-staging.</li>
 *   <li>Leak detection ({@link org.spdl4j.offheap.LeakDetectionLevel}): leases never released are reported with the
 *       stack that acquired them; tests use {@code org.spdl4j.offheap.testing.PoolLeakExtension} (test-jar).</li>
 *   <li>{@link org.spdl4j.offheap.tensor}: dtypes, tensors, batch layouts, NumPy {@code .npy} files.</li>
 *   <li>{@link org.spdl4j.offheap.batch}: zero-copy batch assembly with input-ordered slots.</li>
 * </ul>
 * Every tunable is in {@link org.spdl4j.offheap.OffHeapConfiguration}.
 */
package org.spdl4j.offheap;
