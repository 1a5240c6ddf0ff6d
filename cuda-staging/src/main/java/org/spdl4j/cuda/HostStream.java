package org.spdl4j.cuda;

/**
 * {@link DeviceStream} of {@link HostDevice}: work "queued" on it has already run on the calling thread, so there
 * is nothing to wait for. Counted in the device's counters like a real stream, so leak checks hold on both paths.
 */
final class HostStream implements DeviceStream {
    private final LiveResourceCounters counters;
    private boolean closed;

    HostStream(LiveResourceCounters counters) {
        this.counters = counters;
        counters.stream(+1);
    }

    @Override
    public void waitFor(DeviceEvent event) {
        // Everything before the event has run already: nothing to order.
    }

    @Override
    public void synchronize() {
        // Host work runs synchronously: complete by construction.
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            counters.stream(-1);
        }
    }

    @Override
    public String toString() {
        return "HostStream";
    }
}
