package org.spdl4j.cuda;

import jcuda.Pointer;

/**
 * A JCuda {@link Pointer} at a raw host address, and the way to read back the address the driver wrote into one
 * (cuMemHostAlloc). JCuda resolves such a pointer natively to {@code nativePointer + byteOffset}; its constructor
 * from a long and its address accessor are protected, hence this subclass. Immutable once the driver has filled
 * it in; one per call or per allocation.
 */
final class HostPointer extends Pointer {
    HostPointer() {
        super();
    }

    HostPointer(long address) {
        super(address);
    }

    long address() {
        return getNativePointer() + getByteOffset();
    }
}
