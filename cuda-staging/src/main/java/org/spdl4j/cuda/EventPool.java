package org.spdl4j.cuda;

import org.spdl4j.offheap.CleanupFailures;

/**
 * Reusable events of one device, so a transfer does not create and destroy an event per batch. Grows on demand
 * (events held by consumers' batches are not in the pool); after {@link #close()} returned events are destroyed.
 *
 * <p>Thread-safe: acquire (submit thread) and release (consumer threads) take one short lock around an array
 * push or pop, no allocation once the stack has grown; event creation runs outside the lock.
 */
final class EventPool implements AutoCloseable {
    private final Device device;
    private final Object lock = new Object();
    private DeviceEvent[] free = new DeviceEvent[8]; // guarded by lock
    private int count;                               // guarded by lock
    private boolean closed;                          // guarded by lock

    EventPool(Device device) {
        this.device = device;
    }

    DeviceEvent acquire() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("event pool of " + device.name() + " is closed");
            }
            if (count > 0) {
                DeviceEvent e = free[--count];
                free[count] = null;
                return e;
            }
        }
        return device.createEvent();
    }

    void release(DeviceEvent event) {
        synchronized (lock) {
            if (!closed) {
                if (count == free.length) {
                    free = java.util.Arrays.copyOf(free, count * 2);
                }
                free[count++] = event;
                return;
            }
        }
        event.close();
    }

    /**
     * Destroys the pooled events; events returned later are destroyed on return. An event that fails to close does
     * not stop the others: every one is tried, and the first failure is thrown with the later ones suppressed on it.
     */
    @Override
    public void close() {
        DeviceEvent[] victims;
        int n;
        synchronized (lock) {
            closed = true;
            victims = free;
            n = count;
            free = new DeviceEvent[0];
            count = 0;
        }
        CleanupFailures failures = new CleanupFailures();
        for (int i = 0; i < n; i++) {
            failures.run(victims[i]::close);
        }
        failures.rethrow();
    }
}
