package org.spdl4j.media;

import org.agrona.UnsafeApi;

/**
 * Horizontal flip in place: reverses the order of the pixels of every row of a tightly packed image, swapping the
 * two ends towards the middle, so no second buffer exists. swscale has no mirror, and mirroring the source would cost
 * a copy of the (larger) decoded frame; the destination is small (224 x 224 x 3 = 147 KiB) and already in cache
 * right after the scaler wrote it.
 *
 * <pre>
 *   row before:  p0 p1 p2 ... p(w-2) p(w-1)       each p = channels bytes (1, 3 or 4), kept in order
 *   row after:   p(w-1) p(w-2) ... p2 p1 p0
 * </pre>
 *
 * <p>Thread safe (static, stateless); the caller owns the memory. Allocates nothing. Unaligned loads and stores
 * (the platform is x86-64).
 */
final class RowMirror {
    private RowMirror() {
    }

    /**
     * Mirrors every row of an image.
     *
     * @param address first byte of the image
     * @param width pixels per row
     * @param height rows
     * @param channels bytes per pixel: 1, 3 or 4
     */
    static void mirror(final long address, final int width, final int height, final int channels) {
        final long rowBytes = (long) width * channels;
        for (int y = 0; y < height; y++) {
            final long row = address + y * rowBytes;
            switch (channels) {
                case 1 -> mirrorBytes(row, width);
                case 3 -> mirror3(row, width);
                case 4 -> mirror4(row, width);
                default -> throw new IllegalArgumentException("unsupported pixel size " + channels);
            }
        }
    }

    /** One byte per pixel: 8 pixels per step from each end, reversed with one byte swap each. */
    private static void mirrorBytes(final long row, final int width) {
        long left = row;
        long right = row + width; // one past the last byte
        while (right - left >= 16) {
            final long a = UnsafeApi.getLong(left);
            final long b = UnsafeApi.getLong(right - 8);
            UnsafeApi.putLong(left, Long.reverseBytes(b));
            UnsafeApi.putLong(right - 8, Long.reverseBytes(a));
            left += 8;
            right -= 8;
        }
        right--;
        while (left < right) {
            final byte a = UnsafeApi.getByte(left);
            UnsafeApi.putByte(left, UnsafeApi.getByte(right));
            UnsafeApi.putByte(right, a);
            left++;
            right--;
        }
    }

    /** Three bytes per pixel (RGB24, BGR24): each pixel moved as a short and a byte. */
    private static void mirror3(final long row, final int width) {
        long left = row;
        long right = row + 3L * (width - 1);
        while (left < right) {
            final short a01 = UnsafeApi.getShort(left);
            final byte a2 = UnsafeApi.getByte(left + 2);
            UnsafeApi.putShort(left, UnsafeApi.getShort(right));
            UnsafeApi.putByte(left + 2, UnsafeApi.getByte(right + 2));
            UnsafeApi.putShort(right, a01);
            UnsafeApi.putByte(right + 2, a2);
            left += 3;
            right -= 3;
        }
    }

    /** Four bytes per pixel (RGBA): each pixel moved as an int. */
    private static void mirror4(final long row, final int width) {
        long left = row;
        long right = row + 4L * (width - 1);
        while (left < right) {
            final int a = UnsafeApi.getInt(left);
            UnsafeApi.putInt(left, UnsafeApi.getInt(right));
            UnsafeApi.putInt(right, a);
            left += 4;
            right -= 4;
        }
    }
}
