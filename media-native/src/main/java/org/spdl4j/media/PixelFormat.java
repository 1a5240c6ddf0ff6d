package org.spdl4j.media;

import org.bytedeco.ffmpeg.global.avutil;

/**
 * Output pixel layouts, all packed (interleaved) 8 bits per channel, row-major HWC.
 *
 * <p>Thread safe (enum).
 */
public enum PixelFormat {
    /** R, G, B: 3 bytes per pixel. */
    RGB24(3, avutil.AV_PIX_FMT_RGB24),
    /** B, G, R: 3 bytes per pixel (OpenCV order). */
    BGR24(3, avutil.AV_PIX_FMT_BGR24),
    /** Luma only, full range: 1 byte per pixel. */
    GRAY8(1, avutil.AV_PIX_FMT_GRAY8),
    /** R, G, B, A: 4 bytes per pixel; opaque sources get A = 255. */
    RGBA(4, avutil.AV_PIX_FMT_RGBA);

    private final int channels;
    private final int avPixelFormat;

    PixelFormat(final int channels, final int avPixelFormat) {
        this.channels = channels;
        this.avPixelFormat = avPixelFormat;
    }

    /** {@return channels per pixel, equal to bytes per pixel} */
    public int channels() {
        return channels;
    }

    /** {@return the FFmpeg AVPixelFormat value} */
    int avPixelFormat() {
        return avPixelFormat;
    }
}
