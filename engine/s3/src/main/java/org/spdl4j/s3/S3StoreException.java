package org.spdl4j.s3;

import java.net.URI;

/**
 * An S3 request that failed for good (after the store's retries): the message names the bucket, the key or prefix,
 * the endpoint, the status or cause, and what to do.
 */
public final class S3StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The HTTP status of the last answer, or 0 when there was none (no connection, a timeout). */
    private final int statusCode;

    /**
     * Creates the exception.
     *
     * @param message    the whole message
     * @param statusCode the HTTP status, or 0
     * @param cause      the SDK's exception
     */
    public S3StoreException(String message, int statusCode, Throwable cause) {
        super(message, cause);
        this.statusCode = statusCode;
    }

    /** {@return the HTTP status of the last answer, or 0 when there was none} */
    public int statusCode() {
        return statusCode;
    }

    static String where(String bucket, String key, URI endpoint) {
        return "s3://" + bucket + "/" + key + " at " + (endpoint == null ? "AWS S3" : endpoint);
    }
}
