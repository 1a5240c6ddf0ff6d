package org.spdl4j.offheap;

/**
 * A snapshot of one size class.
 *
 * @param slabBytes bytes per slab
 * @param capacity  number of slabs
 * @param inUse     slabs leased out when the snapshot was taken (approximate while other threads run)
 * @param highWater the most slabs ever leased out at once
 * @param waits     acquires that found the class empty and had to wait
 * @param timeouts  acquires that waited their whole timeout and failed
 */
public record SizeClassStats(int slabBytes, int capacity, int inUse, int highWater, long waits, long timeouts) {
    @Override
    public String toString() {
        return slabBytes + " B: " + inUse + "/" + capacity + " in use, high-water " + highWater + ", waits " + waits
                + ", timeouts " + timeouts;
    }
}
