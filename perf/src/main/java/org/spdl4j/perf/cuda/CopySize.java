package org.spdl4j.perf.cuda;

import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.cuda.TensorSpec;

/** The copy sizes the issue asks for, by JMH parameter name. */
final class CopySize {
    /** An image batch, 32 x 224 x 224 x 3 uint8 = 4,816,896 bytes. */
    static final String BATCH = "batch32x224x224x3";
    /** A 64 MiB block. */
    static final String BLOCK = "block64MiB";

    private CopySize() {
    }

    static TensorSpec spec(String name) {
        return switch (name) {
            case BATCH -> TensorSpec.of(DType.U8, 32, 224, 224, 3);
            case BLOCK -> TensorSpec.of(DType.U8, 64 << 20);
            default -> throw new IllegalArgumentException("size must be " + BATCH + " or " + BLOCK + ", got " + name);
        };
    }
}
