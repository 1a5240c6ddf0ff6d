package org.spdl4j.cuda;

/**
 * {@link DeviceEvent} of {@link HostDevice}: always complete, because host work runs when it is queued. Counted in
 * the device's counters like a real event.
 */
final class HostEvent implements DeviceEvent {
    private final LiveResourceCounters counters;
    private boolean closed;

    HostEvent(LiveResourceCounters counters) {
        this.counters = counters;
        counters.event(+1);
    }

    @Override
    public void record(DeviceStream stream) {
        // The work before this point has completed already.
    }

    @Override
    public boolean isComplete() {
        return true;
    }

    @Override
    public void synchronize() {
        // Always complete.
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            counters.event(-1);
        }
    }
}
