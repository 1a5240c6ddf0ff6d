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
    /** The defaults, named in {@link MediaConfiguration}: 100 MP, 10,000 frames, 4 hours, 256 MiB. */
    public static final MediaLimits DEFAULT = new MediaLimits(MediaConfiguration.DEFAULT_MAX_PIXELS,
            MediaConfiguration.DEFAULT_MAX_FRAMES, MediaConfiguration.DEFAULT_MAX_DURATION_SECONDS,
            MediaConfiguration.DEFAULT_MAX_INPUT_BYTES);

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
     * These limits with another largest frame.
     *
     * @param pixels largest frame accepted (width x height), positive
     * @return the new limits
     */
    public MediaLimits withMaxPixels(final long pixels) {
        return new MediaLimits(pixels, maxFrames, maxDurationSeconds, maxInputBytes);
    }

    /**
     * These limits with another number of frames per request.
     *
     * @param frames most video frames one request may ask for, positive
     * @return the new limits
     */
    public MediaLimits withMaxFrames(final int frames) {
        return new MediaLimits(maxPixels, frames, maxDurationSeconds, maxInputBytes);
    }

    /**
     * These limits with another longest stream.
     *
     * @param seconds longest stream accepted, positive
     * @return the new limits
     */
    public MediaLimits withMaxDurationSeconds(final long seconds) {
        return new MediaLimits(maxPixels, maxFrames, seconds, maxInputBytes);
    }

    /**
     * These limits with another largest input.
     *
     * @param bytes largest image file read into memory, positive
     * @return the new limits
     */
    public MediaLimits withMaxInputBytes(final long bytes) {
        return new MediaLimits(maxPixels, maxFrames, maxDurationSeconds, bytes);
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
                    + maxPixels + " pixels; raise MediaLimits.maxPixels if the input is trusted");
        }
    }
}
