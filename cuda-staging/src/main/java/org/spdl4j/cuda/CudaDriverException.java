package org.spdl4j.cuda;

import jcuda.driver.CUresult;

/**
 * A CUDA driver call failed. The message names the operation (with its arguments and device) and the CUDA error,
 * for example {@code "cuMemAlloc(1125899906842624 bytes) on cuda:0 NVIDIA H200 failed: CUDA_ERROR_OUT_OF_MEMORY (2)"}.
 *
 * <p>Errors such as CUDA_ERROR_ILLEGAL_ADDRESS are sticky: the context is unusable afterwards and the process
 * should close the device and stop.
 */
public final class CudaDriverException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The CUresult code. */
    private final int result;

    /**
     * Creates the exception for a failed call.
     *
     * @param operation what was being done, with its arguments
     * @param result    the CUresult the driver returned
     */
    public CudaDriverException(String operation, int result) {
        super(operation + " failed: " + errorName(result) + " (" + result + ")");
        this.result = result;
    }

    /** {@return the CUresult code the driver returned} */
    public int result() {
        return result;
    }

    /** {@return the CUDA name of the error, such as "CUDA_ERROR_OUT_OF_MEMORY"} */
    public String errorName() {
        return errorName(result);
    }

    static String errorName(int result) {
        // CUresult.stringFor is a pure-Java table: safe to call even where the JCuda native library did not load.
        return CUresult.stringFor(result);
    }
}
