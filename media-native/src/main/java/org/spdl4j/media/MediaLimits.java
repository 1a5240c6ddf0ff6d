package org.spdl4j.media;

/**
 * Limits checked before anything large is allocated, so a decompression bomb (a header declaring 65500x65500, a
 * stream claiming days of video) is refused with a {@link MediaException} instead of exhausting memory.
 *
 * <p>The duration limit is checked against the container header when it gives a duration. A stream that gives none
 * (a raw H.264 or HEVC stream, a FLAC stream without its sample count) is still opened, since such files are common
 * and bounded in practice, and the limit is checked on its frames as they decode instead: decoding fails with a
 * {@link MediaException} naming the limit once a frame lies further than it from the first frame.
 *
 * <p>Immutable and thread safe.
 *
 * @param maxPixels largest frame accepted (width x height); enforced on the container header and on FFmpeg's decoder
 *                  ({@code AVCodecContext.max_pixels}), which checks it before allocating a frame: the video
 *                  or audio decoder, and those that read a file's stream info when it is opened
 * @param maxFrames most video frames one request may ask for
 * @param maxDurationSeconds longest stream accepted: from the container header, else from the frames as they decode
 * @param maxInputBytes largest image file read into memory
 */
public record MediaLimits(long maxPixels, int maxFrames, long maxDurationSeconds, long maxInputBytes) {
    /** The defaults from {@link MediaConfiguration} (system properties {@code spdl4j.media.*}). */
    public static final MediaLimits DEFAULT = new MediaLimits(MediaConfiguration.MAX_PIXELS,
            MediaConfiguration.MAX_FRAMES, MediaConfiguration.MAX_DURATION_SECONDS, MediaConfiguration.MAX_INPUT_BYTES);

    /**
     * Validates the limits.
     *
     * @param maxPixels largest frame accepted
     * @param maxFrames most frames per request
     * @param maxDurationSeconds longest stream accepted
     * @param maxInputBytes largest image file read into memory
     */
    public MediaLimits {
        if (maxPixels <= 0 || maxFrames <= 0 || maxDurationSeconds <= 0 || maxInputBytes <= 0) {
            throw new IllegalArgumentException("limits must be positive: " + maxPixels + ", " + maxFrames + ", "
                    + maxDurationSeconds + ", " + maxInputBytes);
        }
    }

    /**
     * Throws when a frame of {@code width x height} exceeds {@link #maxPixels()}.
     *
     * @param input the input, for the message
     * @param width frame width
     * @param height frame height
     */
    void checkPixels(final String input, final long width, final long height) {
        if (width <= 0 || height <= 0) {
            throw new MediaException(input, "invalid dimensions " + width + "x" + height);
        }
        if (width * height > maxPixels) {
            throw new MediaException(input, "declared size " + width + "x" + height + " exceeds the limit of "
                    + maxPixels + " pixels; raise " + MediaConfiguration.MAX_PIXELS_PROP + " if the input is trusted");
        }
    }
}
