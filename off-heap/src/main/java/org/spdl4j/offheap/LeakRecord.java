package org.spdl4j.offheap;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * A lease still held when a pool was checked or closed.
 *
 * @param pool       the pool's name
 * @param leaseId    the lease's id within the pool
 * @param slabBytes  the slab size of its class
 * @param length     the bytes asked for at acquire
 * @param refCount   its reference count when checked
 * @param site       where it was acquired, or null when it was not tracked (leak detection off, or not sampled)
 * @param handedOver where it was last handed to another owner ({@link Lease#handOver}), or null
 */
public record LeakRecord(String pool, int leaseId, int slabBytes, int length, int refCount, AcquisitionSite site,
                         AcquisitionSite handedOver) {
    /**
     * A record of a lease never handed over.
     *
     * @param pool      the pool's name
     * @param leaseId   the lease's id within the pool
     * @param slabBytes the slab size of its class
     * @param length    the bytes asked for at acquire
     * @param refCount  its reference count when checked
     * @param site      where it was acquired, or null when it was not tracked
     */
    public LeakRecord(String pool, int leaseId, int slabBytes, int length, int refCount, AcquisitionSite site) {
        this(pool, leaseId, slabBytes, length, refCount, site, null);
    }

    /** {@return a multi-line description with the acquisition stack, or a hint to enable paranoid tracking} */
    public String describe() {
        final StringBuilder sb = new StringBuilder()
                .append("LEAK: lease #").append(leaseId).append(" of pool '").append(pool).append("' (")
                .append(length).append(" of ").append(slabBytes).append(" B, refCount ").append(refCount)
                .append(") is still held.");
        if (site == null) {
            sb.append(" Not tracked; run with -D").append(OffHeapConfiguration.LEAK_DETECTION_PROP)
                    .append("=paranoid to see where it was acquired.");
        } else {
            final StringWriter w = new StringWriter();
            site.printStackTrace(new PrintWriter(w));
            sb.append(" Acquired at:\n").append(w);
        }
        if (handedOver != null) {
            final StringWriter w = new StringWriter();
            handedOver.printStackTrace(new PrintWriter(w));
            sb.append("Last handed over at:\n").append(w);
        }
        return sb.toString();
    }
}
