package org.spdl4j.offheap.tensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.spdl4j.offheap.Lease;

/**
 * An n-dimensional array view over a region of a {@link Lease}: element type, shape and strides (in elements), with
 * element {@code (i0, ..., ik)} at byte {@code byteOffset + dtype.byteSize() * sum(i_j * stride_j)} of the lease.
 * A batch is one contiguous tensor {@code [N, ...sample shape]} (see {@link BatchDescriptor}).
 *
 * <pre>
 *  lease: |....byteOffset....| element (0,0) | (0,1) | ... | (0,W-1) | (1,0) | ...   C order: strides [W, 1]
 * </pre>
 *
 * <p><b>Ownership:</b> a view; it holds no reference count. Use it only while you hold the lease (retain it if the
 * tensor travels further than your own hold). <b>Thread safety:</b> the descriptor is immutable; the bytes are plain
 * memory (see {@link Lease}). <b>Allocation:</b> creating a tensor copies its shape arrays; accessors do not allocate
 * except the {@code as...Buffer} views.
 */
public final class Tensor {
    private final Lease lease;
    private final long byteOffset;
    private final DType dtype;
    private final long[] shape;
    private final long[] strides;

    private Tensor(Lease lease, long byteOffset, DType dtype, long[] shape, long[] strides) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.byteOffset = byteOffset;
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        this.shape = shape.clone();
        this.strides = strides.clone();
        if (shape.length != strides.length) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " and strides "
                    + Arrays.toString(strides) + " differ in rank");
        }
        long lastByte = byteOffset;
        final long end;
        try {
            for (int i = 0; i < shape.length; i++) {
                if (shape[i] < 0 || strides[i] < 0) {
                    throw new IllegalArgumentException("negative extent in shape " + Arrays.toString(shape)
                            + " / strides " + Arrays.toString(strides));
                }
                if (shape[i] > 0) { // exact: a wrapped offset would pass the bounds check below (crafted .npy shapes)
                    lastByte = Math.addExact(lastByte,
                            Math.multiplyExact(Math.multiplyExact(shape[i] - 1, strides[i]), dtype.byteSize()));
                }
            }
            end = elementCount() == 0 ? byteOffset : Math.addExact(lastByte, dtype.byteSize());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(dtype + Arrays.toString(shape) + " with strides "
                    + Arrays.toString(strides) + " overflows a 64-bit byte count", e);
        }
        if (byteOffset < 0 || end > lease.capacity()) {
            throw new IllegalArgumentException(dtype + Arrays.toString(shape) + " at byte " + byteOffset
                    + " needs " + end + " B but " + lease + " has " + lease.capacity() + " B");
        }
    }

    /**
     * A C-order (row-major, last axis fastest) tensor.
     *
     * @param lease      the memory
     * @param byteOffset where element 0 starts in the lease
     * @param dtype      element type
     * @param shape      extent of each axis
     * @return the view
     * @throws IllegalArgumentException when the tensor does not fit in the lease
     */
    public static Tensor contiguous(Lease lease, long byteOffset, DType dtype, long... shape) {
        return new Tensor(lease, byteOffset, dtype, shape, cOrderStrides(shape));
    }

    /**
     * A tensor with explicit strides.
     *
     * @param lease      the memory
     * @param byteOffset where element 0 starts in the lease
     * @param dtype      element type
     * @param shape      extent of each axis
     * @param strides    elements between neighbours along each axis, non-negative
     * @return the view
     * @throws IllegalArgumentException when the tensor does not fit in the lease
     */
    public static Tensor strided(Lease lease, long byteOffset, DType dtype, long[] shape, long[] strides) {
        return new Tensor(lease, byteOffset, dtype, shape, strides);
    }

    /**
     * C-order strides of a shape.
     *
     * @param shape extents
     * @return strides in elements, last axis 1
     */
    public static long[] cOrderStrides(long[] shape) {
        final long[] s = new long[shape.length];
        long step = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            s[i] = step;
            if (i > 0) { // the last product is the element count, not a stride
                try {
                    step = Math.multiplyExact(step, shape[i]);
                } catch (ArithmeticException e) {
                    throw new IllegalArgumentException("shape " + Arrays.toString(shape)
                            + " overflows a 64-bit stride", e);
                }
            }
        }
        return s;
    }

    /** {@return the lease the elements live in} */
    public Lease lease() {
        return lease;
    }

    /** {@return where element 0 starts, in bytes from the lease's address} */
    public long byteOffset() {
        return byteOffset;
    }

    /** {@return the address of element 0} */
    public long address() {
        return lease.address() + byteOffset;
    }

    /** {@return the element type} */
    public DType dtype() {
        return dtype;
    }

    /** {@return the number of axes} */
    public int rank() {
        return shape.length;
    }

    /**
     * Extent of one axis.
     *
     * @param axis from 0
     * @return the extent
     */
    public long shape(int axis) {
        return shape[axis];
    }

    /** {@return a copy of the shape} */
    public long[] shape() {
        return shape.clone();
    }

    /**
     * Stride of one axis.
     *
     * @param axis from 0
     * @return elements between neighbours along the axis
     */
    public long stride(int axis) {
        return strides[axis];
    }

    /**
     * {@return the number of elements}
     *
     * @throws ArithmeticException when it does not fit in a {@code long} (only possible with zero strides)
     */
    public long elementCount() {
        long n = 1;
        for (long s : shape) {
            n = Math.multiplyExact(n, s);
        }
        return n;
    }

    /** {@return the bytes of the elements: {@code elementCount() * dtype().byteSize()}} */
    public long byteSize() {
        return elementCount() * dtype.byteSize();
    }

    /** {@return true when the elements are dense in C order (the strides are {@link #cOrderStrides})} */
    public boolean isContiguous() {
        return Arrays.equals(strides, cOrderStrides(shape));
    }

    /**
     * Byte offset of an element from the lease's address. Allocation-free.
     *
     * @param index one index per axis
     * @return the element's byte offset in the lease
     * @throws IndexOutOfBoundsException when an index is outside its axis
     */
    public long byteOffsetOf(long[] index) {
        if (index.length != shape.length) {
            throw new IndexOutOfBoundsException("index of rank " + index.length + " for tensor of rank " + rank());
        }
        long elements = 0;
        for (int i = 0; i < shape.length; i++) {
            if (index[i] < 0 || index[i] >= shape[i]) {
                throw new IndexOutOfBoundsException("index " + index[i] + " outside axis " + i + " of " + this);
            }
            elements += index[i] * strides[i];
        }
        return byteOffset + elements * dtype.byteSize();
    }

    /**
     * The sub-tensor at one index of axis 0 (a sample of a batch). Allocates the view.
     *
     * @param index along axis 0
     * @return a tensor of rank {@code rank() - 1} over the same lease
     * @throws IndexOutOfBoundsException when the index is outside axis 0
     */
    public Tensor select(long index) {
        if (shape.length == 0 || index < 0 || index >= shape[0]) {
            throw new IndexOutOfBoundsException("select(" + index + ") on " + this);
        }
        return new Tensor(lease, byteOffset + index * strides[0] * dtype.byteSize(), dtype,
                Arrays.copyOfRange(shape, 1, shape.length), Arrays.copyOfRange(strides, 1, strides.length));
    }

    /**
     * A new {@link ByteBuffer} over the elements, native byte order. Allocates the wrapper, copies nothing.
     *
     * @return a direct buffer of {@link #byteSize()} bytes
     * @throws IllegalStateException when the tensor is not contiguous
     */
    public ByteBuffer asByteBuffer() {
        if (!isContiguous()) {
            throw new IllegalStateException("asByteBuffer() needs a contiguous tensor; " + this + " is strided");
        }
        return lease.segment().asSlice(byteOffset, byteSize()).asByteBuffer().order(ByteOrder.nativeOrder());
    }

    /**
     * A new {@link FloatBuffer} over the elements. Allocates the wrapper, copies nothing.
     *
     * @return a buffer of {@link #elementCount()} floats
     * @throws IllegalStateException when the tensor is not contiguous F32
     */
    public FloatBuffer asFloatBuffer() {
        if (dtype != DType.F32) {
            throw new IllegalStateException("asFloatBuffer() needs F32, " + this + " is " + dtype);
        }
        return asByteBuffer().asFloatBuffer();
    }

    @Override
    public String toString() {
        return "Tensor[" + dtype + Arrays.toString(shape) + ", strides " + Arrays.toString(strides) + ", +"
                + byteOffset + " in lease #" + lease.id() + "]";
    }
}
