package org.spdl4j.offheap.tensor;

import java.util.Arrays;
import org.spdl4j.offheap.Lease;

/**
 * Layout of a batch in one lease: {@code batchSize} samples of one shape and type, back to back, no padding, so the
 * whole batch is a single contiguous tensor {@code [N, ...sampleShape]} (NHWC or NCHW for images).
 *
 * <pre>
 *  lease.address()
 *  |&lt;- sampleBytes -&gt;|&lt;- sampleBytes -&gt;|     |&lt;- sampleBytes -&gt;|
 *  +----------------+----------------+ ... +----------------+
 *  |   sample 0     |   sample 1     |     | sample N-1     |   sample i at i * sampleBytes
 *  +----------------+----------------+ ... +----------------+   batchBytes = N * sampleBytes
 *  within a sample: C order over sampleShape, e.g. NHWC pixel (y, x, c) at ((y * W + x) * C + c) * dtype size
 * </pre>
 *
 * <p>Immutable and thread-safe. The offset methods allocate nothing.
 */
public final class BatchDescriptor {
    private final int batchSize;
    private final DType dtype;
    private final long[] sampleShape;
    private final int sampleBytes;

    private BatchDescriptor(int batchSize, DType dtype, long[] sampleShape) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batch size must be > 0, got " + batchSize);
        }
        long elements = 1;
        for (long s : sampleShape) {
            if (s <= 0) {
                throw new IllegalArgumentException("sample shape " + Arrays.toString(sampleShape) + " has an empty axis");
            }
            // Saturates above 2^31 (each factor is capped, so the product stays below 2^62): too large either way.
            elements = Math.min(Math.min(elements, Integer.MAX_VALUE + 1L) * Math.min(s, Integer.MAX_VALUE + 1L),
                    Integer.MAX_VALUE + 1L);
        }
        final long bytes = elements * dtype.byteSize(); // at most 2^31 x 8: no wrap
        if (bytes > Integer.MAX_VALUE || bytes * batchSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("batch of " + batchSize + " x " + bytes + " B exceeds 2 GiB (one slab)");
        }
        this.batchSize = batchSize;
        this.dtype = dtype;
        this.sampleShape = sampleShape.clone();
        this.sampleBytes = (int) bytes;
    }

    /**
     * A batch of samples of any shape.
     *
     * @param batchSize   samples per batch
     * @param dtype       element type
     * @param sampleShape shape of one sample
     * @return the descriptor
     * @throws IllegalArgumentException when an extent is not positive or the batch exceeds 2 GiB
     */
    public static BatchDescriptor of(int batchSize, DType dtype, long... sampleShape) {
        return new BatchDescriptor(batchSize, dtype, sampleShape);
    }

    /**
     * A batch of images.
     *
     * @param batchSize samples per batch
     * @param layout    NHWC or NCHW
     * @param height    rows
     * @param width     columns
     * @param channels  channels per pixel
     * @param dtype     element type
     * @return the descriptor
     */
    public static BatchDescriptor images(int batchSize, ImageLayout layout, int height, int width, int channels,
                                         DType dtype) {
        return new BatchDescriptor(batchSize, dtype, layout.sampleShape(height, width, channels));
    }

    /** {@return samples per full batch} */
    public int batchSize() {
        return batchSize;
    }

    /** {@return element type} */
    public DType dtype() {
        return dtype;
    }

    /** {@return a copy of one sample's shape} */
    public long[] sampleShape() {
        return sampleShape.clone();
    }

    /** {@return bytes per sample} */
    public int sampleBytes() {
        return sampleBytes;
    }

    /** {@return bytes per full batch: the lease size to acquire} */
    public int batchBytes() {
        return sampleBytes * batchSize;
    }

    /**
     * Byte offset of a sample from the batch lease's address.
     *
     * @param index sample index, 0 to {@code batchSize - 1}
     * @return {@code index * sampleBytes()}
     */
    public long sampleOffset(int index) {
        return (long) index * sampleBytes;
    }

    /**
     * The batch tensor {@code [n, ...sampleShape]} over a lease. Allocates the view.
     *
     * @param lease the batch's memory
     * @param n     samples held, 0 to {@code batchSize}
     * @return a contiguous tensor
     */
    public Tensor batchTensor(Lease lease, int n) {
        final long[] shape = new long[sampleShape.length + 1];
        shape[0] = n;
        System.arraycopy(sampleShape, 0, shape, 1, sampleShape.length);
        return Tensor.contiguous(lease, 0, dtype, shape);
    }

    @Override
    public String toString() {
        return "Batch[" + batchSize + " x " + dtype + Arrays.toString(sampleShape) + ", " + sampleBytes + " B/sample]";
    }
}
