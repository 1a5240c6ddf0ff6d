package org.spdl4j.media;

import org.spdl4j.offheap.SystemProperties;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The defaults of media-native in one place: named constants, each the default of an option ({@link MediaLimits},
 * {@link ImageSpec#withLowres}, the decoder's constructor) where there is one. Two are also system properties, read
 * once when this class initialises: FFmpeg's log level ({@value #FFMPEG_LOG_LEVEL_PROP}), which a user raises to see
 * what FFmpeg says about an input, and the size of the shared decode memory budget
 * ({@value #DECODE_MEMORY_BYTES_PROP}), which a user raises for larger images; both without recompiling.
 *
 * <p>A value that does not parse or is out of range fails this class's initialisation with a message naming the
 * property ({@link SystemProperties}), rather than leaving the default silently in effect.
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

    /**
     * Default of {@link ImageSpec#scalerQuality()} ({@link ImageSpec#withScalerQuality}): how exactly the scaler
     * rounds and interpolates chroma ({@link ScalerQuality#FAST}). On real photos to 224x224 the accurate flags cost
     * half as much scaler time again (the JPEG's chroma interpolated to full resolution) for 0.1 grey levels of mean
     * difference to a double-precision reference, out of 3.4 that the crop geometry accounts for
     * ({@code docs/benchmarks.md}).
     */
    public static final ScalerQuality DEFAULT_SCALER_QUALITY = ScalerQuality.FAST;

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

    /** Property for {@link #DECODE_MEMORY_BYTES}. */
    public static final String DECODE_MEMORY_BYTES_PROP = "spdl4j.media.decodeMemoryBytes";

    /** The least {@link #DEFAULT_DECODE_MEMORY_BYTES} gives: 512 MiB, room for a 100-megapixel RGBA image. */
    public static final long MIN_DEFAULT_DECODE_MEMORY_BYTES = 512L << 20;

    /** The most {@link #DEFAULT_DECODE_MEMORY_BYTES} gives: 16 GiB. */
    public static final long MAX_DEFAULT_DECODE_MEMORY_BYTES = 16L << 30;

    /**
     * The share of the machine's physical memory (or the container's limit) the shared decode memory budget takes by
     * default: 1/64, within {@link #MIN_DEFAULT_DECODE_MEMORY_BYTES} and {@link #MAX_DEFAULT_DECODE_MEMORY_BYTES}.
     * Ordinary photos (12 megapixels: 36 MiB decoded) decode dozens at once under it; only huge images wait.
     */
    public static final int DEFAULT_DECODE_MEMORY_FRACTION = 64;

    /**
     * Default size of {@link DecodeMemoryBudget#shared()}: 1/{@value #DEFAULT_DECODE_MEMORY_FRACTION} of physical
     * memory, at least {@link #MIN_DEFAULT_DECODE_MEMORY_BYTES} and at most {@link #MAX_DEFAULT_DECODE_MEMORY_BYTES}.
     */
    public static final long DEFAULT_DECODE_MEMORY_BYTES = defaultDecodeMemoryBytes();

    /**
     * The size of {@link DecodeMemoryBudget#shared()}, the bytes of decoded images all decoders of the process hold
     * at once: {@value #DECODE_MEMORY_BYTES_PROP} when set (at least 1), else {@link #DEFAULT_DECODE_MEMORY_BYTES}.
     * A user raises it on a machine whose images are larger than it, without recompiling.
     */
    public static final long DECODE_MEMORY_BYTES = SystemProperties.longValue(DECODE_MEMORY_BYTES_PROP,
            DEFAULT_DECODE_MEMORY_BYTES, 1, Long.MAX_VALUE);

    /** Default of {@link DecodeMemoryBudget#maxWait()}: a decode waits at most 60 s for room in the budget. */
    public static final Duration DEFAULT_DECODE_MEMORY_WAIT = Duration.ofSeconds(60);

    /**
     * Decoded frames larger than this (32 MiB) are not kept in the codec context's buffer pool after their image: the
     * context is freed with them, so the memory goes back to the system when the image's budget reservation does.
     */
    public static final long LARGEST_POOLED_FRAME_BYTES = 32L << 20;

    private static long defaultDecodeMemoryBytes() {
        long physical = 0;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            physical = os.getTotalMemorySize(); // the container's limit where there is one
        }
        return Math.clamp(physical / DEFAULT_DECODE_MEMORY_FRACTION, MIN_DEFAULT_DECODE_MEMORY_BYTES,
                MAX_DEFAULT_DECODE_MEMORY_BYTES);
    }

    private MediaConfiguration() {
    }
}
