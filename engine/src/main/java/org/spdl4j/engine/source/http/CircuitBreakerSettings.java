package org.spdl4j.engine.source.http;

import java.time.Duration;

/**
 * When a storage endpoint (scheme, host and port) counts as down, and for how long requests to it then fail at once
 * ({@link EndpointBreaker}): after {@code failureThreshold} consecutive failed requests (refused or reset connection,
 * timeout, 5xx) the endpoint is open and requests to it fail without being sent; once {@code coolDown} has passed,
 * one trial request goes through, and its success closes the endpoint again (its failure opens it for another
 * cool-down).
 *
 * @param failureThreshold consecutive failed requests that open an endpoint, at least 1; {@link Integer#MAX_VALUE}
 *                         never opens one ({@link #disabled()})
 * @param coolDown         how long an open endpoint refuses requests before one trial request, positive
 */
public record CircuitBreakerSettings(int failureThreshold, Duration coolDown) {
    /**
     * Default consecutive failures that open an endpoint: 20. A dead server reaches it within the first requests in
     * flight; a live server that fails some objects answers others in between, which resets the count.
     */
    public static final int DEFAULT_FAILURE_THRESHOLD = 20;
    /** Default cool-down in ms before a trial request: 5 s. */
    public static final long DEFAULT_COOL_DOWN_MS = 5_000;

    /**
     * Checks the settings.
     *
     * @param failureThreshold consecutive failures that open an endpoint
     * @param coolDown         time before a trial request
     */
    public CircuitBreakerSettings {
        if (failureThreshold < 1) {
            throw new IllegalArgumentException("circuit breaker failureThreshold must be >= 1 (Integer.MAX_VALUE:"
                + " never open), got " + failureThreshold);
        }
        if (coolDown == null || !coolDown.isPositive()) {
            throw new IllegalArgumentException("circuit breaker coolDown must be positive, got " + coolDown);
        }
    }

    /** {@return the defaults: {@value #DEFAULT_FAILURE_THRESHOLD} failures, {@value #DEFAULT_COOL_DOWN_MS} ms} */
    public static CircuitBreakerSettings defaults() {
        return new CircuitBreakerSettings(DEFAULT_FAILURE_THRESHOLD, Duration.ofMillis(DEFAULT_COOL_DOWN_MS));
    }

    /** {@return settings that never open an endpoint: every request is sent, whatever came before} */
    public static CircuitBreakerSettings disabled() {
        return new CircuitBreakerSettings(Integer.MAX_VALUE, Duration.ofMillis(DEFAULT_COOL_DOWN_MS));
    }

    /** {@return whether an endpoint can open at all} */
    public boolean enabled() {
        return failureThreshold != Integer.MAX_VALUE;
    }
}
