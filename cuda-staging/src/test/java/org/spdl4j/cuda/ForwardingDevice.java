package org.spdl4j.cuda;

import org.spdl4j.offheap.MemoryAllocator;

/** A {@link Device} that forwards every call to another: tests override the calls they change. */
class ForwardingDevice implements Device {
    private final Device to;

    ForwardingDevice(Device to) {
        this.to = to;
    }

    @Override
    public String name() {
        return to.name();
    }

    @Override
    public boolean isGpu() {
        return to.isGpu();
    }

    @Override
    public MemoryAllocator hostAllocator() {
        return to.hostAllocator();
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        return to.allocate(bytes);
    }

    @Override
    public DeviceStream createStream() {
        return to.createStream();
    }

    @Override
    public DeviceEvent createEvent() {
        return to.createEvent();
    }

    @Override
    public void copyToDevice(long hostAddress, DeviceBuffer dst, long bytes, DeviceStream stream) {
        to.copyToDevice(hostAddress, dst, bytes, stream);
    }

    @Override
    public void copyToHost(DeviceBuffer src, long hostAddress, long bytes, DeviceStream stream) {
        to.copyToHost(src, hostAddress, bytes, stream);
    }

    @Override
    public NormalizeKernel normalizeKernel() {
        return to.normalizeKernel();
    }

    @Override
    public LiveResourceCounters counters() {
        return to.counters();
    }

    @Override
    public void close() {
        to.close();
    }
}
