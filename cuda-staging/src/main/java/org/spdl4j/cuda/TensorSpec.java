package org.spdl4j.cuda;

import java.util.Arrays;
import java.util.Objects;

/**
 * Element type and shape of a dense, contiguous, row-major tensor (for example a batch {@code [N, H, W, C]} of
 * {@code UINT8} pixels). It says nothing about where the bytes are.
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
        Math.multiplyExact(count, dtype.byteWidth()); // rejects specs whose byte size overflows a long
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
        return elementCount * dtype.byteWidth();
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
