package org.spdl4j.s3;

import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Turns the SDK's failures into {@link S3StoreException}s that say where and what to do. */
final class S3Errors {
    private S3Errors() {
    }

    /**
     * {@return the failure of a request on {@code s3://bucket/key} as an {@link S3StoreException}; a cancellation
     * stays one}
     */
    static RuntimeException of(Throwable error, String bucket, String key, URI endpoint, String request,
                               int maxAttempts) {
        Throwable e = unwrap(error);
        if (e instanceof CancellationException c) {
            return c;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof S3StoreException s) {
                return s; // ours, raised inside the SDK's call (it names the object already)
            }
        }
        String where = S3StoreException.where(bucket, key, endpoint);
        if (e instanceof S3Exception s3) {
            int status = s3.statusCode();
            String code = s3.awsErrorDetails() != null ? s3.awsErrorDetails().errorCode() : null;
            String what = code != null ? code : "HTTP " + status;
            String todo;
            if (e instanceof NoSuchBucketException || "NoSuchBucket".equals(code)) {
                todo = "the bucket '" + bucket + "' does not exist there: check the bucket name, the endpoint and "
                    + "the region";
            } else if (e instanceof NoSuchKeyException || status == 404) {
                todo = "no such object: check the key (list the prefix again if the data set changed)";
            } else if (status == 403 || status == 401) {
                todo = "access denied: check the credentials (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, "
                    + "AWS_PROFILE, or the store's credentials option), their permission to read bucket '" + bucket
                    + "', and the region";
            } else if (status == 301 || "PermanentRedirect".equals(code) || "AuthorizationHeaderMalformed"
                .equals(code)) {
                todo = "the bucket is in another region: give that region";
            } else if (status >= 500 || status == 429) {
                todo = "the store kept failing after " + maxAttempts + " attempts: retry later, or lower the "
                    + "requests in flight";
            } else {
                todo = "the store refused the request";
            }
            return new S3StoreException(request + " " + where + " failed: " + what + " (" + status + "): " + todo,
                status, e);
        }
        if (e instanceof ApiCallAttemptTimeoutException || e instanceof ApiCallTimeoutException) {
            return new S3StoreException(request + " " + where + " timed out (" + e.getMessage() + ", " + maxAttempts
                + " attempts at most): the store is slow or unreachable; raise the store's attemptTimeout or "
                + "lower the requests in flight", 0, e);
        }
        if (String.valueOf(e.getMessage()).contains("Unable to load credentials")) {
            return new S3StoreException(request + " " + where + " failed: no credentials found (" + e.getMessage()
                + "): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or give them to the store "
                + "(S3ObjectStoreBuilder.credentials)", 0, e);
        }
                if (causedBy(e, ConnectException.class) || causedBy(e, UnknownHostException.class)
            || causedBy(e, ClosedChannelException.class)) {
            return new S3StoreException(request + " " + where + " failed: cannot reach the endpoint (" + e
                + "): check the endpoint URL and that the store is running", 0, e);
        }
        return new S3StoreException(request + " " + where + " failed: " + e, 0, e);
    }

    private static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
