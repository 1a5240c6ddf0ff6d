package org.spdl4j.engine.source.http;

import java.io.Serial;
import java.net.URI;

/**
 * An object that could not be fetched: after the last attempt, or at once for an error retrying cannot fix (4xx, too
 * large). Names the URI, the attempts made and the last status or cause. The item is reported through its own
 * stage, exactly once; the pipeline counts it as a failed item.
 */
public final class FetchException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;
    /** The object. */
    private final URI uri;
    /** Attempts made. */
    private final int attempts;
    /** The last HTTP status, or -1 when the last attempt had no response. */
    private final int lastStatus;

    /**
     * Creates the exception.
     *
     * @param uri        the object
     * @param attempts   attempts made
     * @param lastStatus the last HTTP status, or -1
     * @param what       what went wrong
     * @param cause      the last attempt's exception, or null
     */
    public FetchException(URI uri, int attempts, int lastStatus, String what, Throwable cause) {
        super("cannot fetch " + uri + " after " + attempts + " attempt(s): " + what, cause);
        this.uri = uri;
        this.attempts = attempts;
        this.lastStatus = lastStatus;
    }

    /** {@return the object's URI} */
    public URI uri() {
        return uri;
    }

    /** {@return the attempts made} */
    public int attempts() {
        return attempts;
    }

    /** {@return the last HTTP status, or -1 when the last attempt had no response} */
    public int lastStatus() {
        return lastStatus;
    }
}
