package org.spdl4j.offheap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One size class of a {@link BufferPool}: {@code count} slabs of {@code slabBytes} each.
 *
 * @param slabBytes bytes per slab, at most {@link Integer#MAX_VALUE} (an {@code UnsafeBuffer} is int-indexed)
 * @param count     how many slabs, at least one
 */
public record SizeClassSpec(int slabBytes, int count) {
    /**
     * Validates the class.
     *
     * @throws IllegalArgumentException when a value is not positive
     */
    public SizeClassSpec {
        if (slabBytes <= 0 || count <= 0) {
            throw new IllegalArgumentException("size class needs slabBytes > 0 and count > 0, got " + slabBytes
                    + " x " + count);
        }
    }

    /**
     * Sorts size classes by slab size and checks no two have the same size (a slab of that size would have two
     * classes to come from).
     *
     * @param classes the classes, in any order; not modified
     * @param owner   where they come from, for the message: {@code pool 'name'}
     * @return the classes, smallest first (immutable)
     * @throws IllegalArgumentException naming {@code owner} and the size when two classes share it
     */
    static List<SizeClassSpec> sortedDistinct(List<SizeClassSpec> classes, String owner) {
        final List<SizeClassSpec> sorted = new ArrayList<>(classes);
        sorted.sort(Comparator.comparingInt(SizeClassSpec::slabBytes));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).slabBytes() == sorted.get(i - 1).slabBytes()) {
                throw new IllegalArgumentException(owner + ": two size classes of " + sorted.get(i).slabBytes()
                        + " bytes; merge them into one with the summed count");
            }
        }
        return List.copyOf(sorted);
    }
}
