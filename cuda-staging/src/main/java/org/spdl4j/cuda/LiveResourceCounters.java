package org.spdl4j.cuda;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Live counts of the native resources one {@link Device} has created and not yet destroyed: device allocations
 * (pooled or leased), buffers leased to callers, streams, events, blocks from the host allocator (pinned on a
 * GPU). Tests assert they all return
 * to zero; logs print them on close.
 *
 * <p><b>Threads:</b> thread-safe; updated with atomic adds where a resource is created or destroyed (rare: pool
 * misses, stream and event creation), and on buffer lease/return (once per batch). Reads are a snapshot of each
 * counter, not of all counters at one instant.
 */
public final class LiveResourceCounters {
    private final AtomicLong deviceAllocations = new AtomicLong();
    private final AtomicLong deviceBytes = new AtomicLong();
    private final AtomicLong leasedBuffers = new AtomicLong();
    private final AtomicLong streams = new AtomicLong();
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong hostBlocks = new AtomicLong();
    private final AtomicLong hostBytes = new AtomicLong();

    /** Creates counters at zero. */
    public LiveResourceCounters() {
    }

    void deviceAllocated(long bytes, int sign) {
        deviceAllocations.addAndGet(sign);
        deviceBytes.addAndGet(sign * bytes);
    }

    void bufferLeased(int sign) {
        leasedBuffers.addAndGet(sign);
    }

    void stream(int sign) {
        streams.addAndGet(sign);
    }

    void event(int sign) {
        events.addAndGet(sign);
    }

    void hostBlock(long bytes, int sign) {
        hostBlocks.addAndGet(sign);
        hostBytes.addAndGet(sign * bytes);
    }

    /** {@return device memory blocks allocated and not freed (cached in the pool or leased)} */
    public long deviceAllocations() {
        return deviceAllocations.get();
    }

    /** {@return bytes of those blocks} */
    public long deviceBytes() {
        return deviceBytes.get();
    }

    /** {@return buffers handed to callers and not yet closed} */
    public long leasedBuffers() {
        return leasedBuffers.get();
    }

    /** {@return streams created and not destroyed} */
    public long streams() {
        return streams.get();
    }

    /** {@return events created and not destroyed} */
    public long events() {
        return events.get();
    }

    /** {@return blocks from the device's host allocator (pinned on a GPU) allocated and not freed} */
    public long hostBlocks() {
        return hostBlocks.get();
    }

    /** {@return true when nothing is live: every counter is zero} */
    public boolean allReleased() {
        return deviceAllocations() == 0 && deviceBytes() == 0 && leasedBuffers() == 0 && streams() == 0
                && events() == 0 && hostBlocks() == 0 && hostBytes.get() == 0;
    }

    @Override
    public String toString() {
        return "deviceAllocations=" + deviceAllocations() + " (" + deviceBytes() + " B), leasedBuffers="
                + leasedBuffers() + ", streams=" + streams() + ", events=" + events() + ", hostBlocks="
                + hostBlocks() + " (" + hostBytes.get() + " B)";
    }
}
