package org.spdl4j.cuda;

/**
 * Size classes of the device buffer pool: four classes per power of two, so a request wastes at most 25%
 * (a 32x224x224x3 uint8 batch, 4,816,896 B, lands in the 5 MiB class, not 8 MiB).
 *
 * <pre>
 *   bytes in (2^k, 2^(k+1)]  ->  class size = ceil(bytes / 2^(k-2)) * 2^(k-2)  in {5,6,7,8} * 2^(k-2)
 *   index 0 = everything up to MIN_CLASS_BYTES; then 4 per power of two
 * </pre>
 * Pure functions; thread-safe.
 */
final class SizeClasses {
    /** Smallest class; cuMemAlloc aligns to 256 bytes anyway. */
    static final long MIN_CLASS_BYTES = 256;
    /** Number of class indices (covers every positive long). */
    static final int COUNT = 1 + (62 - 8 + 1) * 4;

    private SizeClasses() {
    }

    /**
     * Index of the class that holds {@code bytes}.
     *
     * @param bytes request size, greater than zero
     * @return index in {@code [0, COUNT)}
     */
    static int indexOf(long bytes) {
        if (bytes <= MIN_CLASS_BYTES) {
            return 0;
        }
        int shift = 63 - Long.numberOfLeadingZeros(bytes - 1); // 2^shift < bytes <= 2^(shift+1), shift >= 8
        long step = 1L << (shift - 2);
        long quarters = (bytes + step - 1) >>> (shift - 2);       // 5..8
        return 1 + (shift - 8) * 4 + (int) (quarters - 5);
    }

    /**
     * Size in bytes of the class that holds {@code bytes}.
     *
     * @param bytes request size, greater than zero
     * @return the class size, at least {@code bytes} and at most 1.25 times it (or {@link #MIN_CLASS_BYTES})
     */
    static long sizeOf(long bytes) {
        if (bytes <= MIN_CLASS_BYTES) {
            return MIN_CLASS_BYTES;
        }
        int shift = 63 - Long.numberOfLeadingZeros(bytes - 1);
        long step = 1L << (shift - 2);
        return ((bytes + step - 1) >>> (shift - 2)) << (shift - 2);
    }
}
