package org.spdl4j.cuda;

import jcuda.driver.CUresult;

/**
 * Checks the result of every JCuda driver call (JCuda's own exception mode is global to the JVM, so it is left
 * alone): anything but CUDA_SUCCESS becomes a {@link CudaDriverException} naming the call, its arguments and the
 * device. The message is built only on failure, so checking costs nothing on success.
 */
final class CudaCalls {
    private CudaCalls() {
    }

    static void check(int result, String operation, CudaContext where) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException(operation + " on " + where.name(), result);
        }
    }

    static void check(int result, String operation, long argument, CudaContext where) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException(operation + "(" + argument + ") on " + where.name(), result);
        }
    }

    static void check(int result, String operation, long first, long second, CudaContext where) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException(operation + "(0x" + Long.toHexString(first) + ", " + second + " bytes) on "
                    + where.name(), result);
        }
    }
}
