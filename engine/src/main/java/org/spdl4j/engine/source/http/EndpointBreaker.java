package org.spdl4j.engine.source.http;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;

/**
 * The circuit breaker of one storage endpoint (scheme, host and port): closed while requests succeed; open after
 * {@link CircuitBreakerSettings#failureThreshold()} consecutive failures, when requests are refused before anything
 * is sent; half-open once the cool-down has passed, when one trial request goes through and the others are still
 * refused; the trial's success closes it, its failure opens it for another cool-down.
 *
 * <p>Use: {@link #admit()} before a request, then exactly one of {@link #succeeded}, {@link #failed} or
 * {@link #abandoned} with what it returned. A refused request gets {@link #describeOpen()} for its message.
 *
 * <p><b>Threading:</b> thread-safe; one lock per endpoint, held for a few field updates (no I/O under it).
 * <b>Allocation:</b> none, except the message of a refusal.
 */
public final class EndpointBreaker {
    /** What {@link #admit()} decided. */
    public enum Admission {
        /** The endpoint is closed: send the request. */
        SEND,
        /** The endpoint was open past its cool-down: send this one trial request. */
        TRIAL,
        /** The endpoint is open: fail the request without sending it. */
        REFUSED
    }

    private final String endpoint;
    private final CircuitBreakerSettings settings;
    private final InstantSource clock;
    private int consecutiveFailures;
    /** When the current run of consecutive failures began, or null. */
    private Instant firstFailure;
    /** When the endpoint last opened (or a trial failed), or null while closed. */
    private Instant openedAt;
    private boolean trialInFlight;
    private String lastFailure = "";

    /**
     * Creates the breaker of one endpoint, closed.
     *
     * @param endpoint the endpoint's name, as {@link EndpointBreakers#endpointOf} makes it (for messages)
     * @param settings when it opens and for how long
     * @param clock    the time (a fake one in tests)
     */
    public EndpointBreaker(String endpoint, CircuitBreakerSettings settings, InstantSource clock) {
        this.endpoint = endpoint;
        this.settings = settings;
        this.clock = clock;
    }

    /** {@return the endpoint this breaker guards} */
    public String endpoint() {
        return endpoint;
    }

    /** {@return whether requests to the endpoint are refused now (open, or half-open with its trial in flight)} */
    public synchronized boolean isOpen() {
        return openedAt != null;
    }

    /** {@return the consecutive failed requests so far (0 after a success)} */
    public synchronized int consecutiveFailures() {
        return consecutiveFailures;
    }

    /**
     * Decides whether a request may be sent.
     *
     * @return {@link Admission#SEND} or {@link Admission#TRIAL} (send it, then report its outcome with that value),
     *     or {@link Admission#REFUSED} (do not send it)
     */
    public synchronized Admission admit() {
        if (openedAt == null) {
            return Admission.SEND;
        }
        if (trialInFlight || clock.instant().isBefore(openedAt.plus(settings.coolDown()))) {
            return Admission.REFUSED;
        }
        trialInFlight = true;
        return Admission.TRIAL;
    }

    /**
     * Reports a request that got an answer from the endpoint (any status but 5xx): the endpoint is closed.
     *
     * @param admission what {@link #admit()} returned for it
     */
    public synchronized void succeeded(Admission admission) {
        if (admission == Admission.TRIAL) {
            trialInFlight = false;
        }
        consecutiveFailures = 0;
        firstFailure = null;
        openedAt = null;
    }

    /**
     * Reports a request that failed for the endpoint's sake: refused or reset connection, timeout, 5xx.
     *
     * @param admission what {@link #admit()} returned for it
     * @param what      what went wrong, for the message of later refusals
     */
    public synchronized void failed(Admission admission, String what) {
        Instant now = clock.instant();
        lastFailure = what;
        if (consecutiveFailures < Integer.MAX_VALUE) {
            consecutiveFailures++;
        }
        if (firstFailure == null) {
            firstFailure = now;
        }
        if (admission == Admission.TRIAL) {
            trialInFlight = false;
            openedAt = now; // another cool-down
        } else if (openedAt == null && consecutiveFailures >= settings.failureThreshold()) {
            openedAt = now;
        }
    }

    /**
     * Reports a request that ended without saying anything of the endpoint (the fetcher closed, a request the client
     * refused to build): a trial lets the next request be the trial.
     *
     * @param admission what {@link #admit()} returned for it
     */
    public synchronized void abandoned(Admission admission) {
        if (admission == Admission.TRIAL) {
            trialInFlight = false;
        }
    }

    /** {@return why a request is refused: the endpoint, its consecutive failures, since when, the last one, and when
     * the next trial goes} */
    public synchronized String describeOpen() {
        if (openedAt == null) {
            return "endpoint " + endpoint + " is not open";
        }
        Duration left = Duration.between(clock.instant(), openedAt.plus(settings.coolDown()));
        String next = trialInFlight ? "a trial request is in flight now"
            : left.isPositive() ? "the next trial request goes in " + left.toMillis() + " ms"
            : "the next request is a trial";
        return "endpoint " + endpoint + " is down: " + consecutiveFailures + " consecutive failed requests since "
            + firstFailure.truncatedTo(ChronoUnit.MILLIS) + " (the last: " + lastFailure + "); requests to it fail at once, unsent, until a trial"
            + " request succeeds (" + next + "; cool-down " + settings.coolDown().toMillis() + " ms). Check the"
            + " server, or tune HttpFetchSettings.withCircuitBreaker";
    }
}
