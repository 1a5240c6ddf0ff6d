package org.spdl4j.loader;

/**
 * A sample that cannot be loaded (empty, too large for the loader's buffers, unreadable): the message names the
 * sample's key and says what to do. It fails that sample only; the run goes on.
 */
public final class SampleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The sample's key. */
    private final String key;

    /**
     * Creates the exception.
     *
     * @param key    the sample's key
     * @param reason what is wrong with it and what to do
     * @param cause  the underlying error, or {@code null}
     */
    public SampleException(String key, String reason, Throwable cause) {
        super(key + ": " + reason, cause);
        this.key = key;
    }

    /** {@return the key of the sample that failed} */
    public String key() {
        return key;
    }
}
