package org.spdl4j.offheap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

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
     * Parses a list such as {@code 64K*256,1M*64} (binary K, M, G suffixes). Every comma separates two entries: an
     * empty entry (a leading, doubled or trailing comma, as in {@code 64K*256,}) is refused, not skipped.
     *
     * @param spec the list, in the format of {@value OffHeapConfiguration#SIZE_CLASSES_PROP}
     * @return the classes in the order given
     * @throws IllegalArgumentException naming the bad entry when the list cannot be parsed
     */
    public static List<SizeClassSpec> parseList(String spec) {
        final List<SizeClassSpec> out = new ArrayList<>();
        for (String entry : spec.split(",", -1)) { // -1: keep trailing empty entries, to refuse them
            final String e = entry.trim();
            if (e.isEmpty()) {
                throw new IllegalArgumentException("empty size class in '" + spec + "': expected size*count entries "
                        + "separated by single commas, with none before the first or after the last");
            }
            final int star = e.indexOf('*');
            if (star <= 0) {
                throw new IllegalArgumentException("bad size class '" + e + "' in '" + spec + "': expected size*count");
            }
            try {
                final long size = parseBytes(e.substring(0, star).trim());
                if (size > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("slab larger than 2 GiB");
                }
                out.add(new SizeClassSpec((int) size, Integer.parseInt(e.substring(star + 1).trim())));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("bad size class '" + e + "' in '" + spec + "': " + ex.getMessage(), ex);
            }
        }
        return out;
    }

    /**
     * Sorts size classes by slab size and checks no two have the same size (a slab of that size would have two
     * classes to come from).
     *
     * @param classes the classes, in any order; not modified
     * @param owner   where they come from, for the message: {@code pool 'name'} or a system property
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

    private static long parseBytes(String s) {
        if (s.isEmpty()) {
            throw new IllegalArgumentException("no size before '*'");
        }
        final char unit = Character.toUpperCase(s.charAt(s.length() - 1));
        final int shift = switch (unit) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            default -> 0;
        };
        final String digits = shift == 0 ? s : s.substring(0, s.length() - 1);
        final long value = Long.parseLong(digits.toUpperCase(Locale.ROOT));
        if (value < 0 || value > Long.MAX_VALUE >> shift) { // a plain shift would wrap silently
            throw new IllegalArgumentException("size " + s + " out of range");
        }
        return value << shift;
    }
}
