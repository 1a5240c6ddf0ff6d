package org.spdl4j.cuda;

import java.util.Arrays;
import java.util.Objects;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.Tensor;

/**
 * Element type and shape of a dense, contiguous, row-major tensor (for example a batch {@code [N, H, W, C]} of
 * {@link DType#U8} pixels). It says nothing about where the bytes are.
 *
 * <p><b>Why not off-heap's {@link Tensor}:</b> a {@code Tensor} is a view over a pool {@code Lease} in host memory;
 * a {@link DeviceBatch} lives in device memory that no lease covers, so it carries this memory-free description
 * instead. The element types are off-heap's {@link DType}, and {@link #of(Tensor)} takes the description of a host
 * tensor. Off-heap's {@code BatchDescriptor} describes a batch <em>layout</em> (capacity and sample shape); this
 * describes one concrete array (a published batch may hold fewer samples than its layout's capacity).
 *
 * <p>Immutable; thread-safe. The shape array is copied in and never handed out.
 */
public final class TensorSpec {
    private final DType dtype;
    private final int[] shape;
    private final long elementCount;

    private TensorSpec(DType dtype, int[] shape) {
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        if (shape.length == 0) {
            throw new IllegalArgumentException("a tensor needs at least one dimension");
        }
        long count = 1;
        for (int d : shape) {
            if (d <= 0) {
                throw new IllegalArgumentException("dimensions must be > 0, got " + Arrays.toString(shape));
            }
            count = Math.multiplyExact(count, d);
        }
        Math.multiplyExact(count, dtype.byteSize()); // rejects specs whose byte size overflows a long
        this.shape = shape.clone();
        this.elementCount = count;
    }

    /**
     * Describes a tensor.
     *
     * @param dtype the element type
     * @param shape the dimensions, outermost first, each greater than zero
     * @return the description
     * @throws IllegalArgumentException when a dimension is not positive or the size overflows
     */
    public static TensorSpec of(DType dtype, int... shape) {
        return new TensorSpec(dtype, shape);
    }

    /**
     * Describes a host tensor: its element type and shape (the memory stays with the tensor).
     *
     * @param tensor a contiguous (C-order) tensor with at least one axis, each extent in {@code 1..2^31-1}
     * @return the description
     * @throws IllegalArgumentException when the tensor is strided, has no axis, or an extent does not fit
     */
    public static TensorSpec of(Tensor tensor) {
        if (!tensor.isContiguous()) {
            throw new IllegalArgumentException(tensor + " is strided; a TensorSpec describes dense C-order data only "
                    + "(copy it into a contiguous tensor first)");
        }
        int[] dims = new int[tensor.rank()];
        for (int i = 0; i < dims.length; i++) {
            long d = tensor.shape(i);
            if (d <= 0 || d > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("axis " + i + " of " + tensor + " has extent " + d
                        + "; a TensorSpec needs 1.." + Integer.MAX_VALUE);
            }
            dims[i] = (int) d;
        }
        return new TensorSpec(tensor.dtype(), dims);
    }

    /** {@return the element type} */
    public DType dtype() {
        return dtype;
    }

    /** {@return the number of dimensions} */
    public int rank() {
        return shape.length;
    }

    /**
     * Returns one dimension.
     *
     * @param axis index of the dimension, 0 is the outermost
     * @return its extent
     */
    public int dim(int axis) {
        return shape[axis];
    }

    /** {@return the number of elements (product of the dimensions)} */
    public long elementCount() {
        return elementCount;
    }

    /** {@return the size of the tensor in bytes} */
    public long byteSize() {
        return elementCount * dtype.byteSize();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorSpec t && t.dtype == dtype && Arrays.equals(t.shape, shape);
    }

    @Override
    public int hashCode() {
        return 31 * dtype.hashCode() + Arrays.hashCode(shape);
    }

    @Override
    public String toString() {
        return dtype + Arrays.toString(shape);
    }
}
