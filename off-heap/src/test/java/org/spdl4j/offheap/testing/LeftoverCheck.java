package org.spdl4j.offheap.testing;

/**
 * One kind of resource a test class must give back, checked by {@link NoLeftoversExtension}: threads, pooled leases,
 * FFmpeg contexts, device memory. Modules add their own kinds by listing an implementation in their test resources'
 * {@code META-INF/services/org.spdl4j.offheap.testing.LeftoverCheck} (found with {@link java.util.ServiceLoader}, so
 * a module's tests and every module whose tests put its test-jar on the class path run it).
 *
 * <p>A fresh instance per test class: {@link #before()} may record a baseline in fields. Called on the test thread.
 */
public interface LeftoverCheck {
    /** Records what exists before the class's first test (resources other classes left are not this class's). */
    default void before() {
    }

    /**
     * Looks for what the class left behind. Polled until it returns {@code null} or the grace period ends, so a
     * resource released by a background thread a moment later is not a failure.
     *
     * @return {@code null} when nothing is left, else what is left, naming each resource
     */
    String leftovers();

    /** Releases what {@link #before()} took to measure (called once, after the last {@link #leftovers()}). */
    default void after() {
    }
}
