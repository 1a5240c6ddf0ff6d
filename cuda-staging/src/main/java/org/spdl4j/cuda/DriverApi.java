package org.spdl4j.cuda;

import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;

/**
 * The CUDA driver calls a {@link CudaDevice} makes (its primary context, device and pinned memory, copies, streams,
 * events, the kernel module), so the ownership logic around them can be tested without a GPU: production uses
 * {@link JCudaDriverApi} ({@code JCudaDriver}, one call each), tests a fake that counts what is live and fails a
 * chosen call. Only {@link DeviceDiscovery}'s probe ({@code cuInit}, ...) calls {@code JCudaDriver} directly.
 *
 * <p>Each method returns the {@code CUresult} of the call it stands for, unchecked ({@link CudaCalls} checks it).
 * Addresses are plain longs; a call that returns one writes it into {@code address[0]}. Handles
 * ({@link CUstream}, {@link CUevent}, ...) are filled in by the driver as in JCuda.
 *
 * <p><b>Threads:</b> implementations are thread-safe, as the driver is; the calling thread must have the context
 * current where the driver requires it.
 */
interface DriverApi {
    /** {@return the CUresult of {@code cuDeviceGet}} */
    int deviceGet(CUdevice device, int ordinal);

    /** {@return the CUresult of {@code cuDeviceGetName}} */
    int deviceGetName(byte[] name, CUdevice device);

    /** {@return the CUresult of {@code cuDeviceGetAttribute}} */
    int deviceGetAttribute(int[] value, int attribute, CUdevice device);

    /** {@return the CUresult of {@code cuDevicePrimaryCtxRetain}} */
    int primaryCtxRetain(CUcontext context, CUdevice device);

    /** {@return the CUresult of {@code cuDevicePrimaryCtxRelease}} */
    int primaryCtxRelease(CUdevice device);

    /** {@return the CUresult of {@code cuCtxSetCurrent}} */
    int ctxSetCurrent(CUcontext context);

    /** {@return the CUresult of {@code cuMemAlloc} (the address goes to {@code address[0]})} */
    int memAlloc(long[] address, long bytes);

    /** {@return the CUresult of {@code cuMemFree}} */
    int memFree(long address);

    /** {@return the CUresult of {@code cuMemHostAlloc} (the address goes to {@code address[0]})} */
    int memHostAlloc(long[] address, long bytes, int flags);

    /** {@return the CUresult of {@code cuMemFreeHost}} */
    int memFreeHost(long address);

    /** {@return the CUresult of {@code cuMemcpyHtoDAsync} from {@code host} to {@code device}} */
    int memcpyHtoDAsync(long device, long host, long bytes, CUstream stream);

    /** {@return the CUresult of {@code cuMemcpyDtoHAsync} from {@code device} to {@code host}} */
    int memcpyDtoHAsync(long host, long device, long bytes, CUstream stream);

    /** {@return the CUresult of {@code cuStreamCreate}} */
    int streamCreate(CUstream stream, int flags);

    /** {@return the CUresult of {@code cuStreamWaitEvent} (flags 0)} */
    int streamWaitEvent(CUstream stream, CUevent event);

    /** {@return the CUresult of {@code cuStreamSynchronize}} */
    int streamSynchronize(CUstream stream);

    /** {@return the CUresult of {@code cuStreamDestroy}} */
    int streamDestroy(CUstream stream);

    /** {@return the CUresult of {@code cuEventCreate}} */
    int eventCreate(CUevent event, int flags);

    /** {@return the CUresult of {@code cuEventRecord}} */
    int eventRecord(CUevent event, CUstream stream);

    /** {@return the CUresult of {@code cuEventQuery} (CUDA_ERROR_NOT_READY while pending)} */
    int eventQuery(CUevent event);

    /** {@return the CUresult of {@code cuEventSynchronize}} */
    int eventSynchronize(CUevent event);

    /** {@return the CUresult of {@code cuEventDestroy}} */
    int eventDestroy(CUevent event);

    /** {@return the CUresult of {@code cuMemGetInfo}} */
    int memGetInfo(long[] free, long[] total);

    /** {@return the CUresult of {@code cuMemHostGetDevicePointer} (the address goes to {@code device[0]})} */
    int memHostGetDevicePointer(long[] device, long host);

    /** {@return the CUresult of {@code cuEventElapsedTime}} */
    int eventElapsedTime(float[] millis, CUevent start, CUevent end);

    /** {@return the CUresult of {@code cuModuleLoadData} (a NUL-terminated PTX image)} */
    int moduleLoadData(CUmodule module, byte[] image);

    /** {@return the CUresult of {@code cuModuleGetFunction}} */
    int moduleGetFunction(CUfunction function, CUmodule module, String name);

    /** {@return the CUresult of {@code cuModuleUnload}} */
    int moduleUnload(CUmodule module);

    /** {@return the CUresult of {@code cuLaunchKernel} on a 1-D grid of 1-D blocks, no shared memory} */
    int launchKernel(CUfunction function, int gridX, int blockX, CUstream stream, Pointer params);
}
