package org.spdl4j.media;

import org.spdl4j.offheap.SystemProperties;

/**
 * The defaults of media-native in one place: named constants, each the default of an option ({@link MediaLimits},
 * {@link ImageSpec#withLowres}, the decoder's constructor) where there is one. One is also a system property, read once
 * when this class initialises: FFmpeg's log level ({@value #FFMPEG_LOG_LEVEL_PROP}), which a user raises to see what
 * FFmpeg says about an input, without recompiling.
 *
 * <p>A log level that does not parse or is out of range fails this class's initialisation with a message naming the
 * property ({@link SystemProperties}), rather than leaving FFmpeg silently quiet.
 *
 * <p>Thread safe (constants only).
 */
public final class MediaConfiguration {
    /** Default of {@link MediaLimits#maxPixels()}: the largest image or video frame accepted, 100 MP. */
    public static final long DEFAULT_MAX_PIXELS = 100_000_000L;

    /** Default of {@link MediaLimits#maxFrames()}: the most video frames one request may ask for, 10,000. */
    public static final int DEFAULT_MAX_FRAMES = 10_000;

    /** Default of {@link MediaLimits#maxDurationSeconds()}: the longest video or audio stream accepted, 4 hours. */
    public static final long DEFAULT_MAX_DURATION_SECONDS = 4 * 3600L;

    /** Default of {@link MediaLimits#maxInputBytes()}: the largest image file read into memory, 256 MiB. */
    public static final long DEFAULT_MAX_INPUT_BYTES = 256L << 20;

    /**
     * Default of {@link ImageSpec#lowresAllowed()} ({@link ImageSpec#withLowres}): large JPEGs are decoded at a
     * reduced DCT scale when the target is much smaller ({@code true}).
     */
    public static final boolean DEFAULT_LOWRES = true;

    /**
     * Whether a {@link SingleThreadImageDecoder} decodes JPEGs whose output needs 1/4 of their size or less with
     * spdl4j's own reduced-scale decoder ({@code ReducedJpegDecoder}), from their DC coefficients at 1/8 scale and
     * their four lowest frequencies at 1/4 (the same pixels as FFmpeg's lowres 3 and 2, faster) rather than with
     * FFmpeg, unless its constructor says otherwise ({@code true}). Applies only where {@link ImageSpec#lowresAllowed()
     * reduced decoding} is allowed.
     */
    public static final boolean DEFAULT_REDUCED_JPEG_DECODE = true;

    /** Size of the buffer FFmpeg reads in-memory inputs through, in bytes: 32 KiB. */
    public static final int AVIO_BUFFER_SIZE = 32 * 1024;

    /** Property for {@link #FFMPEG_LOG_LEVEL}. */
    public static final String FFMPEG_LOG_LEVEL_PROP = "spdl4j.media.ffmpegLogLevel";
    /**
     * FFmpeg's log level, an {@code AV_LOG_*} number from -8 ({@code AV_LOG_QUIET}) to 56 ({@code AV_LOG_TRACE}):
     * {@value #FFMPEG_LOG_LEVEL_PROP} when set, else -8: errors reach callers as {@link MediaException} text, so
     * FFmpeg is quiet unless asked.
     */
    public static final int FFMPEG_LOG_LEVEL = SystemProperties.intValue(FFMPEG_LOG_LEVEL_PROP, -8, -8, 56);

    private MediaConfiguration() {
    }
}
