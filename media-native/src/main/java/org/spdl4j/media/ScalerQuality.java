package org.spdl4j.media;

import org.bytedeco.ffmpeg.global.swscale;

/**
 * How exactly the one swscale pass rounds and interpolates chroma, on top of the {@link Interpolation} filter:
 * a trade of scaler time against closeness to a floating-point reference decode + resize. Measured on real photos in
 * {@code docs/benchmarks.md} ("Decode steps and scaler flags").
 *
 * <p>The two differ only for planar YUV sources with subsampled chroma (JPEG, most video): an RGB, paletted or grey
 * source is scaled with the accurate flags either way (without them swscale's internal RGB -> YUV -> RGB round trip
 * shifts a large downscale's colours by a few levels).
 *
 * <p>Thread safe (enum).
 */
public enum ScalerQuality {
    /**
     * {@code SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT}: rounds each filter stage exactly and interpolates chroma to full
     * horizontal resolution before the RGB conversion.
     */
    ACCURATE(swscale.SWS_ACCURATE_RND | swscale.SWS_FULL_CHR_H_INT),
    /**
     * {@code SWS_ACCURATE_RND} only: chroma is interpolated at the output's resolution, not the source's, which on a
     * JPEG's subsampled chroma takes about a third less scaler time.
     */
    FAST(swscale.SWS_ACCURATE_RND);

    private final int extraFlags;

    ScalerQuality(final int extraFlags) {
        this.extraFlags = extraFlags;
    }

    /** {@return the SWS_* flags this quality adds to the filter's for a source of any format} */
    int swsFlags() {
        return extraFlags;
    }

    /**
     * {@return the SWS_* flags this quality adds to the filter's for a source of this format}
     *
     * @param subsampledYuv whether the source is planar YUV with subsampled chroma
     */
    int swsFlags(final boolean subsampledYuv) {
        return subsampledYuv ? extraFlags : ACCURATE.extraFlags;
    }
}
