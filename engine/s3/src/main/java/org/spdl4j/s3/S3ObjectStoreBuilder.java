package org.spdl4j.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.spdl4j.engine.source.http.CircuitBreakerSettings;

/**
 * Options of an {@link S3ObjectStore}, each with a default: AWS S3 in the default region chain's region
 * ({@code AWS_REGION}, the profile), credentials from the default chain (environment, system properties,
 * {@code ~/.aws}, container and instance roles).
 */
public final class S3ObjectStoreBuilder {
    String region;
    URI endpoint;
    Boolean pathStyle;
    String accessKeyId;
    String secretAccessKey;
    int maxConcurrency = S3ObjectStore.DEFAULT_MAX_CONCURRENCY;
    int maxAttempts = S3ObjectStore.DEFAULT_MAX_ATTEMPTS;
    CircuitBreakerSettings circuitBreaker = CircuitBreakerSettings.defaults();
    Duration attemptTimeout = S3ObjectStore.DEFAULT_ATTEMPT_TIMEOUT;
    Duration connectTimeout = Duration.ofSeconds(10);
    int partSize = S3ObjectStore.DEFAULT_PART_SIZE;
    int readAhead = S3ObjectStore.DEFAULT_READ_AHEAD;
    long maxObjectBytes = S3ObjectStore.DEFAULT_MAX_OBJECT_BYTES;

    S3ObjectStoreBuilder() {
    }

    /**
     * Sets the region (default: the SDK's region chain; {@code us-east-1} with an
     * endpoint override).
     *
     * @param awsRegion a region id, {@code eu-west-1}
     * @return this builder
     */
    public S3ObjectStoreBuilder region(String awsRegion) {
        this.region = Objects.requireNonNull(awsRegion, "awsRegion");
        return this;
    }

    /**
     * Sends requests to an S3-compatible store instead of AWS (MinIO, Ceph, S3Proxy); path-style addressing
     * unless {@link #pathStyle} says otherwise.
     *
     * @param url the endpoint, {@code http://127.0.0.1:9000}
     * @return this builder
     */
    public S3ObjectStoreBuilder endpoint(URI url) {
        this.endpoint = Objects.requireNonNull(url, "url");
        return this;
    }

    /**
     * Sets path-style addressing ({@code endpoint/bucket/key}) or virtual-host style ({@code bucket.endpoint/key});
     * default: path style with an endpoint override, the SDK's choice without.
     *
     * @param on whether to use path style
     * @return this builder
     */
    public S3ObjectStoreBuilder pathStyle(boolean on) {
        this.pathStyle = on;
        return this;
    }

    /**
     * Signs with these static credentials instead of the default chain.
     *
     * @param keyId  the access key id
     * @param secret the secret access key
     * @return this builder
     */
    public S3ObjectStoreBuilder credentials(String keyId, String secret) {
        this.accessKeyId = Objects.requireNonNull(keyId, "keyId");
        this.secretAccessKey = Objects.requireNonNull(secret, "secret");
        return this;
    }

    /**
     * Sets the most requests in flight on the store's connections (default 64);
     * a loader's {@code readConcurrency} bounds its object reads below that.
     *
     * @param n requests, at least 1
     * @return this builder
     */
    public S3ObjectStoreBuilder maxConcurrency(int n) {
        this.maxConcurrency = positive("maxConcurrency", n);
        return this;
    }

    /**
     * Sets the store's circuit breaker (default {@link CircuitBreakerSettings#defaults()}, as for HTTP): after that
     * many requests in a row fail without an answer or with a 5xx (each after its retries), reads and shard opens
     * fail at once, unsent, naming the endpoint, until a trial request after the cool-down succeeds; answers such as
     * 403 or 404 show the endpoint alive. {@link CircuitBreakerSettings#disabled()} turns it off.
     *
     * @param settings when the breaker opens and for how long
     * @return this builder
     */
    public S3ObjectStoreBuilder circuitBreaker(CircuitBreakerSettings settings) {
        this.circuitBreaker = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /**
     * Sets the attempts per request, the first included (default 3): throttling, 5xx answers and timeouts are
     * retried with back-off.
     *
     * @param n attempts, at least 1
     * @return this builder
     */
    public S3ObjectStoreBuilder maxAttempts(int n) {
        this.maxAttempts = positive("maxAttempts", n);
        return this;
    }

    /**
     * Sets the deadline of one attempt of a request (default 30 s); also the idle read timeout of a connection.
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public S3ObjectStoreBuilder attemptTimeout(Duration timeout) {
        this.attemptTimeout = positive("attemptTimeout", timeout);
        return this;
    }

    /**
     * Sets the connect timeout (default 10 s).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public S3ObjectStoreBuilder connectTimeout(Duration timeout) {
        this.connectTimeout = positive("connectTimeout", timeout);
        return this;
    }

    /**
     * Sets the bytes per ranged GET of a shard stream (default 8 MiB).
     *
     * @param bytes at least 64 KiB
     * @return this builder
     */
    public S3ObjectStoreBuilder partSize(int bytes) {
        if (bytes < 64 * 1024) {
            throw new IllegalArgumentException("partSize must be at least 64 KiB, got " + bytes);
        }
        this.partSize = bytes;
        return this;
    }

    /**
     * Sets the ranged GETs in flight ahead of a shard's reader (default 4; 1 reads one part at a time).
     *
     * @param parts at least 1
     * @return this builder
     */
    public S3ObjectStoreBuilder readAhead(int parts) {
        this.readAhead = positive("readAhead", parts);
        return this;
    }

    /**
     * Sets the largest object read as one sample (default 32 MiB, the loader pool's largest slab); a larger one
     * fails its sample, naming it.
     *
     * @param bytes at least 1
     * @return this builder
     */
    public S3ObjectStoreBuilder maxObjectBytes(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("maxObjectBytes must be positive, got " + bytes);
        }
        this.maxObjectBytes = bytes;
        return this;
    }

    /**
     * {@return the store: its client is built now (no request is sent)}
     *
     * @throws IllegalArgumentException when no region is given nor found and there is no endpoint override
     */
    public S3ObjectStore build() {
        return new S3ObjectStore(this);
    }

    private static int positive(String what, int n) {
        if (n < 1) {
            throw new IllegalArgumentException(what + " must be at least 1, got " + n);
        }
        return n;
    }

    private static Duration positive(String what, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
        return d;
    }
}
