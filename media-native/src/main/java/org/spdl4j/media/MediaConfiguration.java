package org.spdl4j.media;

import org.spdl4j.offheap.SystemProperties;

/**
 * Every tunable of media-native in one place: a named default, overridable by a {@code spdl4j.media.*} system
 * property read once when this class initialises.
 *
 * <p>A property set to a value that does not parse or is out of range fails this class's initialisation with a
 * message naming it ({@link SystemProperties}), rather than leaving the default silently in effect: a limit raised
 * with a typo ({@code 512m}) would otherwise keep refusing the inputs it was raised for, while the refusal says to
 * raise it.
 *
 * <p>Thread safe (constants only).
 */
public final class MediaConfiguration {
    /** Property for {@link #MAX_PIXELS}. */
    public static final String MAX_PIXELS_PROP = "spdl4j.media.maxPixels";
    /** Largest image or video frame accepted, in pixels (width x height); default 100 MP. */
    public static final long MAX_PIXELS = SystemProperties.longValue(MAX_PIXELS_PROP, 100_000_000L, 1, Long.MAX_VALUE);

    /** Property for {@link #MAX_FRAMES}. */
    public static final String MAX_FRAMES_PROP = "spdl4j.media.maxFrames";
    /** Most video frames one request may ask for; default 10,000. */
    public static final int MAX_FRAMES = SystemProperties.intValue(MAX_FRAMES_PROP, 10_000, 1, Integer.MAX_VALUE);

    /** Property for {@link #MAX_DURATION_SECONDS}. */
    public static final String MAX_DURATION_PROP = "spdl4j.media.maxDurationSeconds";
    /** Longest video or audio stream accepted, in seconds (from the container header); default 4 hours. */
    public static final long MAX_DURATION_SECONDS =
            SystemProperties.longValue(MAX_DURATION_PROP, 4 * 3600L, 1, Long.MAX_VALUE);

    /** Property for {@link #MAX_INPUT_BYTES}. */
    public static final String MAX_INPUT_BYTES_PROP = "spdl4j.media.maxInputBytes";
    /** Largest image file read into memory, in bytes; default 256 MiB. */
    public static final long MAX_INPUT_BYTES =
            SystemProperties.longValue(MAX_INPUT_BYTES_PROP, 256L << 20, 1, Long.MAX_VALUE);

    /** Property for {@link #LOWRES_ENABLED}. */
    public static final String LOWRES_PROP = "spdl4j.media.lowres";
    /** Whether large JPEGs are decoded at a reduced DCT scale when the target is much smaller; default true. */
    public static final boolean LOWRES_ENABLED = SystemProperties.booleanValue(LOWRES_PROP, true);

    /** Property for {@link #REDUCED_JPEG_DECODE}. */
    public static final String REDUCED_JPEG_DECODE_PROP = "spdl4j.media.reducedJpegDecode";
    /**
     * The property's earlier name (from when the decoder did 1/8 scale alone, from DC coefficients), still accepted;
     * where both are set, {@link #REDUCED_JPEG_DECODE_PROP} wins.
     */
    public static final String JPEG_DC_DECODE_ALIAS_PROP = "spdl4j.media.jpegDcDecode";
    /**
     * Whether JPEGs whose output needs 1/4 of their size or less are decoded by spdl4j's own reduced-scale decoder
     * ({@code ReducedJpegDecoder}), from their DC coefficients at 1/8 scale and their four lowest frequencies at 1/4
     * (the same pixels as FFmpeg's lowres 3 and 2, faster) rather than by FFmpeg; default true. Applies only where
     * {@link #LOWRES_ENABLED reduced decoding} is allowed.
     */
    public static final boolean REDUCED_JPEG_DECODE =
            SystemProperties.booleanValue(REDUCED_JPEG_DECODE_PROP, JPEG_DC_DECODE_ALIAS_PROP, true);

    /** Property for {@link #AVIO_BUFFER_SIZE}. */
    public static final String AVIO_BUFFER_SIZE_PROP = "spdl4j.media.avioBufferSize";
    /** Size of the buffer FFmpeg reads in-memory inputs through, in bytes; default 32 KiB. */
    public static final int AVIO_BUFFER_SIZE =
            SystemProperties.intValue(AVIO_BUFFER_SIZE_PROP, 32 * 1024, 1, Integer.MAX_VALUE);

    /** Property for {@link #FFMPEG_LOG_LEVEL}. */
    public static final String FFMPEG_LOG_LEVEL_PROP = "spdl4j.media.ffmpegLogLevel";
    /**
     * FFmpeg's log level, an {@code AV_LOG_*} number from -8 ({@code AV_LOG_QUIET}) to 56 ({@code AV_LOG_TRACE});
     * default -8: errors reach callers as {@link MediaException} text, so FFmpeg is quiet unless asked.
     */
    public static final int FFMPEG_LOG_LEVEL = SystemProperties.intValue(FFMPEG_LOG_LEVEL_PROP, -8, -8, 56);

    private MediaConfiguration() {
    }
}
