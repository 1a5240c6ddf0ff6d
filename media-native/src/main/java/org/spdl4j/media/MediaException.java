package org.spdl4j.media;

/**
 * Any failure to open, demux, decode, scale or resample one media input.
 *
 * <p>The message always names the input (a path, or the caller's label for bytes in memory), the step that failed and,
 * when FFmpeg reported it, FFmpeg's own error text ({@code av_strerror}) and code. Unchecked, so decode functions plug
 * into {@code java.util.function.Function} stages; the pipeline counts it as a failed item. Native memory held for the
 * failed item has already been released when this is thrown.
 */
public final class MediaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** FFmpeg error code, or 0 when the failure was detected by spdl4j itself (limits, capacity, format). */
    private final int errorCode;
    private final String input;

    /**
     * Creates an exception for a failure detected by spdl4j (no FFmpeg error code).
     *
     * @param input the input that failed (path or label)
     * @param message what failed and what to do about it
     */
    public MediaException(final String input, final String message) {
        this(input, message, 0, null);
    }

    /**
     * Creates an exception for a failure with an optional FFmpeg error code and cause.
     *
     * @param input the input that failed (path or label)
     * @param message what failed, already including FFmpeg's error text where there is one
     * @param errorCode FFmpeg's (negative) error code, or 0
     * @param cause the underlying exception, or null
     */
    public MediaException(final String input, final String message, final int errorCode, final Throwable cause) {
        super(input + ": " + message, cause);
        this.input = input;
        this.errorCode = errorCode;
    }

    /** {@return the input that failed: a path, or the label the caller gave bytes in memory} */
    public String input() {
        return input;
    }

    /** {@return FFmpeg's error code (negative, an AVERROR), or 0 if the failure was detected by spdl4j} */
    public int errorCode() {
        return errorCode;
    }
}
