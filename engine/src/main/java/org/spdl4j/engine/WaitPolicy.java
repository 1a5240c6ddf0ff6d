package org.spdl4j.engine;

/**
 * How a stage's threads wait: for input (the consumer side of the stage's input ring) and for room in a full output
 * ring (the producer side). Every policy is bounded or interruptible, so {@link Pipeline#close()} always returns.
 */
public enum WaitPolicy {
    /** Spin on the CPU; lowest hand-off latency, burns a core per waiting thread. Only with cores to spare. */
    BUSY_SPIN,
    /** Spin briefly then {@link Thread#yield()}; low latency, still busy when idle. */
    YIELDING,
    /**
     * Spin, yield, then park with a doubling period up to {@link EngineConfiguration#BACKOFF_MAX_PARK_NANOS}: the
     * default, since idle stages then cost next to nothing on a small machine. Yields while other threads want the
     * CPU (a machine running more stage threads than cores) do not hasten the parking, within a bound; see
     * {@link org.spdl4j.engine.ring.BackoffPolicy}.
     */
    BACKOFF,
    /**
     * Consumers sleep on a lock and condition and producers signal them (as Disruptor's blocking strategy); a record
     * ring's stage waiting for the stage before it, and producers waiting for room, back off and park, as nothing
     * signals them ({@link org.spdl4j.engine.ring.BlockingThenBackoffWaitStrategy}).
     */
    BLOCKING
}
