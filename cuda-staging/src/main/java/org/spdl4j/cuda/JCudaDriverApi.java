package org.spdl4j.cuda;

import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * {@link DriverApi} on JCuda's {@code JCudaDriver}: one driver call per method. {@code JCudaDriver} (and with it
 * JCuda's native library) is loaded on the first call, not when this class loads.
 *
 * <p>Thread-safe (stateless). <b>Allocation:</b> the address calls wrap their addresses in JCuda's small pointer
 * objects (JCuda takes addresses only as objects): one or two per copy, which moves megabytes.
 */
final class JCudaDriverApi implements DriverApi {
    static final JCudaDriverApi INSTANCE = new JCudaDriverApi();

    private JCudaDriverApi() {
    }

    @Override
    public int deviceGet(CUdevice device, int ordinal) {
        return JCudaDriver.cuDeviceGet(device, ordinal);
    }

    @Override
    public int deviceGetName(byte[] name, CUdevice device) {
        return JCudaDriver.cuDeviceGetName(name, name.length, device);
    }

    @Override
    public int deviceGetAttribute(int[] value, int attribute, CUdevice device) {
        return JCudaDriver.cuDeviceGetAttribute(value, attribute, device);
    }

    @Override
    public int primaryCtxRetain(CUcontext context, CUdevice device) {
        return JCudaDriver.cuDevicePrimaryCtxRetain(context, device);
    }

    @Override
    public int primaryCtxRelease(CUdevice device) {
        return JCudaDriver.cuDevicePrimaryCtxRelease(device);
    }

    @Override
    public int ctxSetCurrent(CUcontext context) {
        return JCudaDriver.cuCtxSetCurrent(context);
    }

    @Override
    public int memAlloc(long[] address, long bytes) {
        DevicePointer p = new DevicePointer();
        int r = JCudaDriver.cuMemAlloc(p, bytes);
        address[0] = p.address();
        return r;
    }

    @Override
    public int memFree(long address) {
        return JCudaDriver.cuMemFree(new DevicePointer(address));
    }

    @Override
    public int memHostAlloc(long[] address, long bytes, int flags) {
        HostPointer p = new HostPointer();
        int r = JCudaDriver.cuMemHostAlloc(p, bytes, flags);
        address[0] = p.address();
        return r;
    }

    @Override
    public int memFreeHost(long address) {
        return JCudaDriver.cuMemFreeHost(new HostPointer(address));
    }

    @Override
    public int memcpyHtoDAsync(long device, long host, long bytes, CUstream stream) {
        return JCudaDriver.cuMemcpyHtoDAsync(new DevicePointer(device), new HostPointer(host), bytes, stream);
    }

    @Override
    public int memcpyDtoHAsync(long host, long device, long bytes, CUstream stream) {
        return JCudaDriver.cuMemcpyDtoHAsync(new HostPointer(host), new DevicePointer(device), bytes, stream);
    }

    @Override
    public int streamCreate(CUstream stream, int flags) {
        return JCudaDriver.cuStreamCreate(stream, flags);
    }

    @Override
    public int streamWaitEvent(CUstream stream, CUevent event) {
        return JCudaDriver.cuStreamWaitEvent(stream, event, 0);
    }

    @Override
    public int streamSynchronize(CUstream stream) {
        return JCudaDriver.cuStreamSynchronize(stream);
    }

    @Override
    public int streamDestroy(CUstream stream) {
        return JCudaDriver.cuStreamDestroy(stream);
    }

    @Override
    public int eventCreate(CUevent event, int flags) {
        return JCudaDriver.cuEventCreate(event, flags);
    }

    @Override
    public int eventRecord(CUevent event, CUstream stream) {
        return JCudaDriver.cuEventRecord(event, stream);
    }

    @Override
    public int eventQuery(CUevent event) {
        return JCudaDriver.cuEventQuery(event);
    }

    @Override
    public int eventSynchronize(CUevent event) {
        return JCudaDriver.cuEventSynchronize(event);
    }

    @Override
    public int eventDestroy(CUevent event) {
        return JCudaDriver.cuEventDestroy(event);
    }

    @Override
    public int memGetInfo(long[] free, long[] total) {
        return JCudaDriver.cuMemGetInfo(free, total);
    }

    @Override
    public int memHostGetDevicePointer(long[] device, long host) {
        DevicePointer p = new DevicePointer();
        int r = JCudaDriver.cuMemHostGetDevicePointer(p, new HostPointer(host), 0);
        device[0] = p.address();
        return r;
    }

    @Override
    public int eventElapsedTime(float[] millis, CUevent start, CUevent end) {
        return JCudaDriver.cuEventElapsedTime(millis, start, end);
    }

    @Override
    public int moduleLoadData(CUmodule module, byte[] image) {
        return JCudaDriver.cuModuleLoadData(module, image);
    }

    @Override
    public int moduleGetFunction(CUfunction function, CUmodule module, String name) {
        return JCudaDriver.cuModuleGetFunction(function, module, name);
    }

    @Override
    public int moduleUnload(CUmodule module) {
        return JCudaDriver.cuModuleUnload(module);
    }

    @Override
    public int launchKernel(CUfunction function, int gridX, int blockX, CUstream stream, Pointer params) {
        return JCudaDriver.cuLaunchKernel(function, gridX, 1, 1, blockX, 1, 1, 0, stream, params, null);
    }
}
