package org.spdl4j.media;

import org.bytedeco.ffmpeg.global.swscale;

/**
 * How exactly the one swscale pass rounds and interpolates chroma, on top of the {@link Interpolation} filter:
 * a trade of scaler time against closeness to a floating-point reference decode + resize. Measured on real photos in
 * {@code docs/benchmarks.md} ("Decode steps and scaler flags").
 *
 * <p>Thread safe (enum).
 */
public enum ScalerQuality {
    /**
     * {@code SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT}: rounds each filter stage exactly and interpolates chroma to full
     * horizontal resolution before the RGB conversion.
     */
    ACCURATE(swscale.SWS_ACCURATE_RND | swscale.SWS_FULL_CHR_H_INT),
    /** The filter alone: swscale's default rounding and chroma handling (its SIMD paths throughout). */
    FAST(0);

    private final int extraFlags;

    ScalerQuality(final int extraFlags) {
        this.extraFlags = extraFlags;
    }

    /** {@return the SWS_* flags this quality adds to the filter's} */
    int swsFlags() {
        return extraFlags;
    }
}
