package org.spdl4j.cuda;

import jcuda.driver.CUdeviceptr;

/**
 * A JCuda {@link CUdeviceptr} at a raw device address, and the way to read back the address cuMemAlloc wrote into
 * one. JCuda resolves device pointers natively to {@code nativePointer + byteOffset}; a pointer built here has
 * {@code nativePointer = 0, byteOffset = address}. Immutable once filled in.
 */
final class DevicePointer extends CUdeviceptr {
    private static final CUdeviceptr NULL = new CUdeviceptr();

    DevicePointer() {
        super();
    }

    DevicePointer(long address) {
        super(NULL, address);
    }

    long address() {
        return getNativePointer() + getByteOffset();
    }
}
