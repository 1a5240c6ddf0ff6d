package org.spdl4j.cuda;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;

/**
 * A CUDA driver without a GPU, for the ownership logic of {@link CudaDevice}: it counts the primary context's retains
 * and what lives in the context (device and pinned blocks, streams, events, modules), refuses calls in a context no
 * longer retained (as the driver does once the context is destroyed), and fails the next call of a chosen name.
 * Memory addresses are made up: nothing may read or write them.
 *
 * <p>Thread-safe (synchronized).
 */
final class FakeDriverApi implements DriverApi {
    private int retains;
    private long nextAddress = 0x7000_0000_0000L;
    private final Map<Long, Long> deviceBlocks = new HashMap<>();
    private final Map<Long, Long> hostBlocks = new HashMap<>();
    private final Set<Object> handles = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Call name (such as "cuEventRecord") -> the CUresult its next call returns instead of running. */
    private final Map<String, Integer> failNext = new HashMap<>();
    /** Calls made in a context no longer retained: each is a use after free in a real driver. */
    private final List<String> callsWithoutContext = new ArrayList<>();
    /** What was still live in the context when its last retain went (the driver freed it, not its owner). */
    private final List<String> destroyedWith = new ArrayList<>();

    /** The next call named {@code call} returns {@code result} and does nothing. */
    synchronized void failNext(String call, int result) {
        failNext.put(call, result);
    }

    /** {@return retains of the primary context not yet released} */
    synchronized int retains() {
        return retains;
    }

    /** {@return a description of everything still allocated or created in the context, empty when nothing is} */
    synchronized String live() {
        StringBuilder b = new StringBuilder();
        if (!deviceBlocks.isEmpty()) {
            b.append(deviceBlocks.size()).append(" device block(s) ");
        }
        if (!hostBlocks.isEmpty()) {
            b.append(hostBlocks.size()).append(" pinned block(s) ");
        }
        if (!handles.isEmpty()) {
            b.append(handles.size()).append(" stream/event/module handle(s)");
        }
        return b.toString().trim();
    }

    /** {@return for each destruction of the context that found something live, what it found} */
    synchronized List<String> destroyedWith() {
        return List.copyOf(destroyedWith);
    }

    /** {@return the calls made while no retain held the context (each would fail or corrupt on a GPU)} */
    synchronized List<String> callsWithoutContext() {
        return List.copyOf(callsWithoutContext);
    }

    /** Returns the CUresult to fail {@code call} with, or success after checking the context is retained. */
    private int enter(String call) {
        Integer failure = failNext.remove(call);
        if (failure != null) {
            return failure;
        }
        if (retains == 0 && !call.startsWith("cuDevice")) {
            callsWithoutContext.add(call);
            return CUresult.CUDA_ERROR_CONTEXT_IS_DESTROYED;
        }
        return CUresult.CUDA_SUCCESS;
    }

    private int create(String call, Object handle) {
        int r = enter(call);
        if (r == CUresult.CUDA_SUCCESS) {
            handles.add(handle);
        }
        return r;
    }

    private int use(String call, Object... used) {
        int r = enter(call);
        if (r != CUresult.CUDA_SUCCESS) {
            return r;
        }
        for (Object h : used) {
            if (!handles.contains(h)) {
                return CUresult.CUDA_ERROR_INVALID_HANDLE;
            }
        }
        return r;
    }

    private int destroy(String call, Object handle) {
        int r = use(call, handle);
        if (r == CUresult.CUDA_SUCCESS) {
            handles.remove(handle);
        }
        return r;
    }

    private int allocate(String call, Map<Long, Long> blocks, long[] address, long bytes) {
        int r = enter(call);
        if (r == CUresult.CUDA_SUCCESS) {
            address[0] = nextAddress;
            blocks.put(nextAddress, bytes);
            nextAddress += (bytes + 0xFFFF) & ~0xFFFFL;
        }
        return r;
    }

    private int free(String call, Map<Long, Long> blocks, long address) {
        int r = enter(call);
        if (r == CUresult.CUDA_SUCCESS && blocks.remove(address) == null) {
            return CUresult.CUDA_ERROR_INVALID_VALUE;
        }
        return r;
    }

    @Override
    public synchronized int deviceGet(CUdevice device, int ordinal) {
        return ordinal == 0 ? enter("cuDeviceGet") : CUresult.CUDA_ERROR_INVALID_DEVICE;
    }

    @Override
    public synchronized int deviceGetName(byte[] name, CUdevice device) {
        byte[] fake = "Fake GPU".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(fake, 0, name, 0, fake.length);
        return enter("cuDeviceGetName");
    }

    @Override
    public synchronized int deviceGetAttribute(int[] value, int attribute, CUdevice device) {
        value[0] = 4;
        return enter("cuDeviceGetAttribute");
    }

    @Override
    public synchronized int primaryCtxRetain(CUcontext context, CUdevice device) {
        int r = enter("cuDevicePrimaryCtxRetain");
        if (r == CUresult.CUDA_SUCCESS) {
            retains++;
        }
        return r;
    }

    @Override
    public synchronized int primaryCtxRelease(CUdevice device) {
        int r = enter("cuDevicePrimaryCtxRelease");
        if (r != CUresult.CUDA_SUCCESS) {
            return r;
        }
        if (retains == 0) {
            return CUresult.CUDA_ERROR_INVALID_CONTEXT;
        }
        if (--retains == 0) { // the last retain destroys the context and all it holds
            String live = live();
            if (!live.isEmpty()) {
                destroyedWith.add(live);
            }
            deviceBlocks.clear();
            hostBlocks.clear();
            handles.clear();
        }
        return r;
    }

    @Override
    public synchronized int ctxSetCurrent(CUcontext context) {
        return enter("cuCtxSetCurrent");
    }

    @Override
    public synchronized int memAlloc(long[] address, long bytes) {
        return allocate("cuMemAlloc", deviceBlocks, address, bytes);
    }

    @Override
    public synchronized int memFree(long address) {
        return free("cuMemFree", deviceBlocks, address);
    }

    @Override
    public synchronized int memHostAlloc(long[] address, long bytes, int flags) {
        return allocate("cuMemHostAlloc", hostBlocks, address, bytes);
    }

    @Override
    public synchronized int memFreeHost(long address) {
        return free("cuMemFreeHost", hostBlocks, address);
    }

    @Override
    public synchronized int memcpyHtoDAsync(long device, long host, long bytes, CUstream stream) {
        return use("cuMemcpyHtoDAsync", stream);
    }

    @Override
    public synchronized int memcpyDtoHAsync(long host, long device, long bytes, CUstream stream) {
        return use("cuMemcpyDtoHAsync", stream);
    }

    @Override
    public synchronized int streamCreate(CUstream stream, int flags) {
        return create("cuStreamCreate", stream);
    }

    @Override
    public synchronized int streamWaitEvent(CUstream stream, CUevent event) {
        return use("cuStreamWaitEvent", stream, event);
    }

    @Override
    public synchronized int streamSynchronize(CUstream stream) {
        return use("cuStreamSynchronize", stream);
    }

    @Override
    public synchronized int streamDestroy(CUstream stream) {
        return destroy("cuStreamDestroy", stream);
    }

    @Override
    public synchronized int eventCreate(CUevent event, int flags) {
        return create("cuEventCreate", event);
    }

    @Override
    public synchronized int eventRecord(CUevent event, CUstream stream) {
        return use("cuEventRecord", event, stream);
    }

    @Override
    public synchronized int eventQuery(CUevent event) {
        return use("cuEventQuery", event);
    }

    @Override
    public synchronized int eventSynchronize(CUevent event) {
        return use("cuEventSynchronize", event);
    }

    @Override
    public synchronized int eventDestroy(CUevent event) {
        return destroy("cuEventDestroy", event);
    }

    @Override
    public synchronized int memGetInfo(long[] free, long[] total) {
        total[0] = 1L << 34;
        free[0] = total[0] - deviceBlocks.values().stream().mapToLong(Long::longValue).sum();
        return enter("cuMemGetInfo");
    }

    @Override
    public synchronized int memHostGetDevicePointer(long[] device, long host) {
        device[0] = host;
        return enter("cuMemHostGetDevicePointer");
    }

    @Override
    public synchronized int eventElapsedTime(float[] millis, CUevent start, CUevent end) {
        millis[0] = 1;
        return use("cuEventElapsedTime", start, end);
    }

    @Override
    public synchronized int moduleLoadData(CUmodule module, byte[] image) {
        return create("cuModuleLoadData", module);
    }

    @Override
    public synchronized int moduleGetFunction(CUfunction function, CUmodule module, String name) {
        return use("cuModuleGetFunction", module);
    }

    @Override
    public synchronized int moduleUnload(CUmodule module) {
        return destroy("cuModuleUnload", module);
    }

    @Override
    public synchronized int launchKernel(CUfunction function, int gridX, int blockX, CUstream stream, Pointer params) {
        return use("cuLaunchKernel", stream);
    }
}
