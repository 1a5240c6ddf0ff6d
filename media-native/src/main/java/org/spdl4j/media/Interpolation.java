package org.spdl4j.media;

import org.bytedeco.ffmpeg.global.swscale;

/**
 * Resampling filter used by the single swscale pass.
 *
 * <p>Thread safe (enum).
 */
public enum Interpolation {
    /** Bilinear (torchvision's default for tensors). */
    BILINEAR(swscale.SWS_BILINEAR),
    /** Bicubic. */
    BICUBIC(swscale.SWS_BICUBIC),
    /** Area averaging (best for large downscales). */
    AREA(swscale.SWS_AREA);

    private final int swsFlag;

    Interpolation(final int swsFlag) {
        this.swsFlag = swsFlag;
    }

    /** {@return the SWS_* flag} */
    int swsFlag() {
        return swsFlag;
    }
}
