package org.spdl4j.media;

/**
 * Every tunable of media-native in one place: a named default, overridable by a {@code spdl4j.media.*} system
 * property read once when this class initialises.
 *
 * <p>Thread safe (constants only).
 */
public final class MediaConfiguration {
    /** Property for {@link #MAX_PIXELS}. */
    public static final String MAX_PIXELS_PROP = "spdl4j.media.maxPixels";
    /** Largest image or video frame accepted, in pixels (width x height); default 100 MP. */
    public static final long MAX_PIXELS = Long.getLong(MAX_PIXELS_PROP, 100_000_000L);

    /** Property for {@link #MAX_FRAMES}. */
    public static final String MAX_FRAMES_PROP = "spdl4j.media.maxFrames";
    /** Most video frames one request may ask for; default 10,000. */
    public static final int MAX_FRAMES = Integer.getInteger(MAX_FRAMES_PROP, 10_000);

    /** Property for {@link #MAX_DURATION_SECONDS}. */
    public static final String MAX_DURATION_PROP = "spdl4j.media.maxDurationSeconds";
    /** Longest video or audio stream accepted, in seconds (from the container header); default 4 hours. */
    public static final long MAX_DURATION_SECONDS = Long.getLong(MAX_DURATION_PROP, 4 * 3600L);

    /** Property for {@link #MAX_INPUT_BYTES}. */
    public static final String MAX_INPUT_BYTES_PROP = "spdl4j.media.maxInputBytes";
    /** Largest image file read into memory, in bytes; default 256 MiB. */
    public static final long MAX_INPUT_BYTES = Long.getLong(MAX_INPUT_BYTES_PROP, 256L << 20);

    /** Property for {@link #LOWRES_ENABLED}. */
    public static final String LOWRES_PROP = "spdl4j.media.lowres";
    /** Whether large JPEGs are decoded at a reduced DCT scale when the target is much smaller; default true. */
    public static final boolean LOWRES_ENABLED = Boolean.parseBoolean(System.getProperty(LOWRES_PROP, "true"));

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
    public static final boolean REDUCED_JPEG_DECODE = reducedJpegDecode(System.getProperty(REDUCED_JPEG_DECODE_PROP),
            System.getProperty(JPEG_DC_DECODE_ALIAS_PROP));

    /** Property for {@link #AVIO_BUFFER_SIZE}. */
    public static final String AVIO_BUFFER_SIZE_PROP = "spdl4j.media.avioBufferSize";
    /** Size of the buffer FFmpeg reads in-memory inputs through, in bytes; default 32 KiB. */
    public static final int AVIO_BUFFER_SIZE = Integer.getInteger(AVIO_BUFFER_SIZE_PROP, 32 * 1024);

    /** Property for the FFmpeg log level (an AV_LOG_* number); default -8 (AV_LOG_QUIET). */
    public static final String FFMPEG_LOG_LEVEL_PROP = "spdl4j.media.ffmpegLogLevel";

    private MediaConfiguration() {
    }

    /**
     * Resolves {@link #REDUCED_JPEG_DECODE} from its property and the property's earlier name.
     *
     * @param value {@link #REDUCED_JPEG_DECODE_PROP}'s value, null when unset
     * @param aliasValue {@link #JPEG_DC_DECODE_ALIAS_PROP}'s value, null when unset
     * @return the first of the two that is set, parsed as {@link Boolean#parseBoolean}; true when neither is
     */
    static boolean reducedJpegDecode(final String value, final String aliasValue) {
        final String set = value != null ? value : aliasValue;
        return set == null || Boolean.parseBoolean(set);
    }

    /** {@return the FFmpeg log level: errors reach callers as MediaException text, so FFmpeg is quiet by default} */
    static int ffmpegLogLevel() {
        return Integer.getInteger(FFMPEG_LOG_LEVEL_PROP, -8);
    }
}
