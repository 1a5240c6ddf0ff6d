package org.spdl4j.cuda;

/**
 * Element type of a tensor on the host or the device: a name and a width in bytes.
 *
 * <p>Immutable; thread-safe.
 */
public enum DType {
    /** Unsigned 8-bit integer (image pixels). */
    UINT8(1),
    /** Signed 16-bit integer (PCM audio). */
    INT16(2),
    /** Signed 32-bit integer. */
    INT32(4),
    /** Signed 64-bit integer. */
    INT64(8),
    /** IEEE 754 half precision. */
    FLOAT16(2),
    /** IEEE 754 single precision. */
    FLOAT32(4),
    /** IEEE 754 double precision. */
    FLOAT64(8);

    private final int byteWidth;

    DType(int byteWidth) {
        this.byteWidth = byteWidth;
    }

    /** {@return the size of one element in bytes} */
    public int byteWidth() {
        return byteWidth;
    }
}
