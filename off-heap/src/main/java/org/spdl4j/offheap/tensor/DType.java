package org.spdl4j.offheap.tensor;

import java.nio.ByteOrder;

/**
 * Element types of a {@link Tensor}, with their size and NumPy type string. Elements are stored in the platform's
 * native byte order (little-endian on x86-64 and AArch64), which is what decoders and GPUs write and read.
 */
public enum DType {
    /** Unsigned 8-bit integer (pixels). */
    U8('u', 1),
    /** Signed 16-bit integer (PCM audio). */
    I16('i', 2),
    /** Signed 32-bit integer (labels, indices). */
    I32('i', 4),
    /** IEEE 754 half precision (binary16). */
    F16('f', 2),
    /** IEEE 754 single precision. */
    F32('f', 4),
    /** IEEE 754 double precision. */
    F64('f', 8);

    private static final char NATIVE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? '<' : '>';

    private final char kind;
    private final int byteSize;

    DType(char kind, int byteSize) {
        this.kind = kind;
        this.byteSize = byteSize;
    }

    /** {@return bytes per element} */
    public int byteSize() {
        return byteSize;
    }

    /** {@return the NumPy array-protocol type string in native order, such as {@code <f4}; {@code |u1} for bytes} */
    public String npyDescr() {
        return (byteSize == 1 ? '|' : NATIVE) + String.valueOf(kind) + byteSize;
    }

    /**
     * Finds the type of a NumPy type string.
     *
     * @param descr such as {@code <f4}, {@code |u1}, {@code u1}
     * @return the type
     * @throws IllegalArgumentException when the type is not one of ours, or its byte order is not native
     */
    public static DType fromNpyDescr(String descr) {
        final String d = descr.trim();
        final char order = d.isEmpty() ? '?' : d.charAt(0);
        final boolean hasOrder = order == '<' || order == '>' || order == '|' || order == '=';
        final String body = hasOrder ? d.substring(1) : d;
        for (DType t : values()) {
            if (body.equals(t.kind + String.valueOf(t.byteSize))) {
                if (t.byteSize > 1 && hasOrder && order != NATIVE && order != '=') {
                    throw new IllegalArgumentException("dtype '" + descr + "' is not in native byte order ("
                            + NATIVE + "); convert with numpy's astype('" + NATIVE + body + "')");
                }
                return t;
            }
        }
        throw new IllegalArgumentException("unsupported dtype '" + descr + "'; supported: u1, i2, i4, f2, f4, f8");
    }
}
