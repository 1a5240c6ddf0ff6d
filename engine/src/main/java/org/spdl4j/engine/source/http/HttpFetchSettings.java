package org.spdl4j.engine.source.http;

import java.time.Duration;

import org.spdl4j.offheap.SystemProperties;
import org.spdl4j.offheap.Timeouts;

/**
 * Settings of an {@link HttpObjectFetcher}, with named defaults each overridable by a system property.
 *
 * @param maxInFlight    the most requests in flight at once (retry backoffs hold their slot), at least 1
 * @param maxAttempts    attempts per object, first one included, at least 1
 * @param attemptTimeout the longest one attempt may take, headers and body; one too long for a {@code long} of
 *                       nanoseconds (about 292 years, {@code ChronoUnit.FOREVER}) is kept as that: no limit
 * @param connectTimeout the longest a TCP/TLS connect may take; saturated as {@code attemptTimeout}
 * @param initialBackoff the wait before the first retry; doubled each retry, with jitter
 * @param maxBackoff     the longest wait between attempts
 * @param maxBodyBytes   the largest object accepted (a bigger one fails without retry)
 */
public record HttpFetchSettings(int maxInFlight, int maxAttempts, Duration attemptTimeout, Duration connectTimeout,
        Duration initialBackoff, Duration maxBackoff, int maxBodyBytes) {
    /** Default requests in flight; property {@code spdl4j.http.maxInFlight}. */
    public static final int DEFAULT_MAX_IN_FLIGHT = SystemProperties.intValue("spdl4j.http.maxInFlight", 64, 1, Integer.MAX_VALUE);
    /** Default attempts per object; property {@code spdl4j.http.maxAttempts}. */
    public static final int DEFAULT_MAX_ATTEMPTS = SystemProperties.intValue("spdl4j.http.maxAttempts", 4, 1, Integer.MAX_VALUE);
    /** Default attempt timeout in ms; property {@code spdl4j.http.attemptTimeoutMs}. */
    public static final long DEFAULT_ATTEMPT_TIMEOUT_MS = SystemProperties.longValue("spdl4j.http.attemptTimeoutMs", 30_000, 1, Long.MAX_VALUE);
    /** Default connect timeout in ms; property {@code spdl4j.http.connectTimeoutMs}. */
    public static final long DEFAULT_CONNECT_TIMEOUT_MS = SystemProperties.longValue("spdl4j.http.connectTimeoutMs", 10_000, 1, Long.MAX_VALUE);
    /** Default first backoff in ms; property {@code spdl4j.http.initialBackoffMs}. */
    public static final long DEFAULT_INITIAL_BACKOFF_MS = SystemProperties.longValue("spdl4j.http.initialBackoffMs", 100, 0, Long.MAX_VALUE);
    /** Default longest backoff in ms; property {@code spdl4j.http.maxBackoffMs}. */
    public static final long DEFAULT_MAX_BACKOFF_MS = SystemProperties.longValue("spdl4j.http.maxBackoffMs", 5_000, 0, Long.MAX_VALUE);
    /** Default largest object in bytes; property {@code spdl4j.http.maxBodyBytes}. */
    public static final int DEFAULT_MAX_BODY_BYTES = SystemProperties.intValue("spdl4j.http.maxBodyBytes", 256 << 20, 0, Integer.MAX_VALUE);

    /**
     * Checks the settings.
     *
     * @param maxInFlight    requests in flight
     * @param maxAttempts    attempts per object
     * @param attemptTimeout attempt timeout
     * @param connectTimeout connect timeout
     * @param initialBackoff first backoff
     * @param maxBackoff     longest backoff
     * @param maxBodyBytes   largest object
     */
    public HttpFetchSettings {
        if (maxInFlight < 1 || maxAttempts < 1 || maxBodyBytes < 0) {
            throw new IllegalArgumentException("need maxInFlight >= 1, maxAttempts >= 1, maxBodyBytes >= 0: "
                    + maxInFlight + ", " + maxAttempts + ", " + maxBodyBytes);
        }
        // The HTTP client refuses a zero or negative timeout on every request: refuse it here, once, by name.
        if (!attemptTimeout.isPositive() || !connectTimeout.isPositive()) {
            throw new IllegalArgumentException("HTTP timeouts must be positive: attempt " + attemptTimeout
                    + ", connect " + connectTimeout);
        }
        if (initialBackoff.isNegative() || maxBackoff.isNegative()) {
            throw new IllegalArgumentException("HTTP back-offs must not be negative: initial " + initialBackoff
                    + ", max " + maxBackoff);
        }
        // The fetcher converts them to ms and ns: a longer timeout overflowed there (every object failed as "not
        // sent", or an attempt's error was never reported). Past ~292 years a timeout means "none" anyway.
        attemptTimeout = Duration.ofNanos(Timeouts.nanos(attemptTimeout));
        connectTimeout = Duration.ofNanos(Timeouts.nanos(connectTimeout));
    }

    /** {@return the defaults (system properties applied)} */
    public static HttpFetchSettings defaults() {
        return new HttpFetchSettings(DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_ATTEMPTS,
                Duration.ofMillis(DEFAULT_ATTEMPT_TIMEOUT_MS), Duration.ofMillis(DEFAULT_CONNECT_TIMEOUT_MS),
                Duration.ofMillis(DEFAULT_INITIAL_BACKOFF_MS), Duration.ofMillis(DEFAULT_MAX_BACKOFF_MS),
                DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * These settings with another bound on requests in flight.
     *
     * @param n requests in flight
     * @return the new settings
     */
    public HttpFetchSettings withMaxInFlight(int n) {
        return new HttpFetchSettings(n, maxAttempts, attemptTimeout, connectTimeout, initialBackoff, maxBackoff,
                maxBodyBytes);
    }

    /**
     * These settings with other retry and timeout values.
     *
     * @param attempts attempts per object
     * @param timeout  attempt timeout
     * @param backoff  first backoff (the longest becomes 20 times it)
     * @return the new settings
     */
    public HttpFetchSettings withRetries(int attempts, Duration timeout, Duration backoff) {
        return new HttpFetchSettings(maxInFlight, attempts, timeout, connectTimeout, backoff, backoff.multipliedBy(20),
                maxBodyBytes);
    }
}
