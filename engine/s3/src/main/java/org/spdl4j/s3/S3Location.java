package org.spdl4j.s3;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;

/**
 * A place in a bucket: {@code s3://bucket/prefix}. The prefix is a key prefix ({@code train/}), a whole key
 * ({@code train/shard-000.tar}) or empty (the whole bucket). A value.
 *
 * @param bucket the bucket
 * @param prefix the key prefix, possibly empty; never starts with {@code /}
 */
public record S3Location(String bucket, String prefix) {
    /** The URI scheme of S3 locations. */
    public static final String SCHEME = "s3";

    /** Checks the parts. */
    public S3Location {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        if (bucket.isEmpty() || bucket.contains("/")) {
            throw new IllegalArgumentException("not a bucket name: '" + bucket + "'");
        }
        if (prefix.startsWith("/")) {
            throw new IllegalArgumentException("s3://" + bucket + "/" + prefix + ": a key prefix never starts with /");
        }
    }

    /**
     * Parses {@code s3://bucket/prefix}.
     *
     * @param text the location
     * @return it
     * @throws IllegalArgumentException when it is not an {@code s3://} location with a bucket
     */
    public static S3Location parse(String text) {
        if (!isS3(text)) {
            throw new IllegalArgumentException("'" + text + "' is not an S3 location: give s3://bucket/prefix/");
        }
        String rest = text.substring((SCHEME + "://").length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' names no bucket: give s3://bucket/prefix/");
        }
        return new S3Location(bucket, slash < 0 ? "" : rest.substring(slash + 1));
    }

    /**
     * {@return whether {@code text} is an {@code s3://} location}
     *
     * @param text any text
     */
    public static boolean isS3(String text) {
        return text != null && text.regionMatches(true, 0, SCHEME + "://", 0, SCHEME.length() + 3);
    }

    /**
     * {@return the URI of an object of this location's bucket: {@code s3://bucket/key}, the key's unsafe characters
     * quoted}
     *
     * @param key the object's key
     */
    public URI objectUri(String key) {
        try {
            return new URI(SCHEME, bucket, "/" + key, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("s3://" + bucket + "/" + key + ": not a valid object URI", e);
        }
    }

    /**
     * {@return the location of an object URI ({@code s3://bucket/key}): its bucket and, as the prefix, its key}
     *
     * @param object an object URI, as {@link #objectUri} makes it
     */
    public static S3Location ofObject(URI object) {
        if (!SCHEME.equalsIgnoreCase(object.getScheme()) || object.getAuthority() == null) {
            throw new IllegalArgumentException(object + ": not an S3 object (s3://bucket/key)");
        }
        String path = object.getPath();
        return new S3Location(object.getAuthority(), path.startsWith("/") ? path.substring(1) : path);
    }

    /** {@return {@code s3://bucket/prefix}} */
    @Override
    public String toString() {
        return SCHEME + "://" + bucket + "/" + prefix;
    }
}
