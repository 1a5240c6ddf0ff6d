package org.spdl4j.engine.source.http;

import java.time.Duration;

import org.spdl4j.offheap.Timeouts;

/**
 * Settings of an {@link HttpObjectFetcher}: start from {@link #defaults()} (the {@code DEFAULT_*} constants) and change
 * what differs with the {@code with*} methods, or give every value to the constructor.
 *
 * @param maxInFlight    the most requests in flight at once (retry backoffs hold their slot), at least 1
 * @param maxAttempts    attempts per object, first one included, at least 1
 * @param attemptTimeout the longest one attempt may take, headers and body; one too long for a {@code long} of
 *                       nanoseconds (about 292 years, {@code ChronoUnit.FOREVER}) is kept as that: no limit
 * @param connectTimeout the longest a TCP/TLS connect may take; saturated as {@code attemptTimeout}
 * @param initialBackoff the wait before the first retry; doubled each retry, with jitter
 * @param maxBackoff     the longest wait between attempts
 * @param maxBodyBytes   the largest object accepted (a bigger one fails without retry)
 * @param circuitBreaker when an endpoint counts as down and its requests fail at once ({@link EndpointBreaker})
 */
public record HttpFetchSettings(int maxInFlight, int maxAttempts, Duration attemptTimeout, Duration connectTimeout,
        Duration initialBackoff, Duration maxBackoff, int maxBodyBytes, CircuitBreakerSettings circuitBreaker) {
    /** Default requests in flight: 64. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 64;
    /** Default attempts per object, the first included: 4. */
    public static final int DEFAULT_MAX_ATTEMPTS = 4;
    /** Default attempt timeout in ms: 30 s. */
    public static final long DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;
    /** Default connect timeout in ms: 10 s. */
    public static final long DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
    /** Default first backoff in ms: 100 ms. */
    public static final long DEFAULT_INITIAL_BACKOFF_MS = 100;
    /** Default longest backoff in ms: 5 s. */
    public static final long DEFAULT_MAX_BACKOFF_MS = 5_000;
    /** Default largest object in bytes: 256 MiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = 256 << 20;

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
     * @param circuitBreaker per-endpoint circuit breaker
     */
    public HttpFetchSettings {
        java.util.Objects.requireNonNull(circuitBreaker, "circuitBreaker");
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

    /**
     * Settings with the default circuit breaker ({@link CircuitBreakerSettings#defaults()}).
     *
     * @param maxInFlight    requests in flight
     * @param maxAttempts    attempts per object
     * @param attemptTimeout attempt timeout
     * @param connectTimeout connect timeout
     * @param initialBackoff first backoff
     * @param maxBackoff     longest backoff
     * @param maxBodyBytes   largest object
     */
    public HttpFetchSettings(int maxInFlight, int maxAttempts, Duration attemptTimeout, Duration connectTimeout,
            Duration initialBackoff, Duration maxBackoff, int maxBodyBytes) {
        this(maxInFlight, maxAttempts, attemptTimeout, connectTimeout, initialBackoff, maxBackoff, maxBodyBytes,
                CircuitBreakerSettings.defaults());
    }

    /** {@return the defaults, the {@code DEFAULT_*} constants} */
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
                maxBodyBytes, circuitBreaker);
    }

    /**
     * These settings with another bound on the size of an object.
     *
     * @param bytes the largest object accepted, at least 0 (a bigger one fails without retry)
     * @return the new settings
     */
    public HttpFetchSettings withMaxBodyBytes(int bytes) {
        return new HttpFetchSettings(maxInFlight, maxAttempts, attemptTimeout, connectTimeout, initialBackoff,
                maxBackoff, bytes, circuitBreaker);
    }

    /**
     * These settings with another connect timeout.
     *
     * @param timeout the longest a TCP/TLS connect may take, positive
     * @return the new settings
     */
    public HttpFetchSettings withConnectTimeout(Duration timeout) {
        return new HttpFetchSettings(maxInFlight, maxAttempts, attemptTimeout, timeout, initialBackoff, maxBackoff,
                maxBodyBytes, circuitBreaker);
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
                maxBodyBytes, circuitBreaker);
    }

    /**
     * These settings with another circuit breaker per endpoint.
     *
     * @param breaker when an endpoint counts as down, and for how long ({@link CircuitBreakerSettings#disabled()}:
     *                never)
     * @return the new settings
     */
    public HttpFetchSettings withCircuitBreaker(CircuitBreakerSettings breaker) {
        return new HttpFetchSettings(maxInFlight, maxAttempts, attemptTimeout, connectTimeout, initialBackoff,
                maxBackoff, maxBodyBytes, breaker);
    }
}
