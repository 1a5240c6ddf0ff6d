package org.spdl4j.offheap.testing;

import java.time.Duration;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.spdl4j.offheap.OffHeapConfiguration;

/**
 * JUnit 5 extension that fails a test which leaves any {@link org.spdl4j.offheap.BufferPool} short: after each test,
 * every live pool must be back to the number of leases it had out before the test (pools opened by the test: zero),
 * within a grace period ({@value OffHeapConfiguration#LEAK_CHECK_GRACE_PROP}). The failure lists each leaked lease
 * with the stack that acquired it. Use {@code @ExtendWith(PoolLeakExtension.class)}, or
 * {@code @RegisterExtension static PoolLeakExtension leaks = PoolLeakExtension.withGrace(...)}.
 *
 * <p>Ships in off-heap's test-jar (type {@code test-jar}) for every module's tests. Not thread-safe across tests
 * run in parallel in one JVM (it sees every pool).
 */
public final class PoolLeakExtension implements BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PoolLeakExtension.class);
    private final Duration grace;

    /** An extension with the configured grace period. */
    public PoolLeakExtension() {
        this(Duration.ofMillis(OffHeapConfiguration.LEAK_CHECK_GRACE_MS));
    }

    private PoolLeakExtension(Duration grace) {
        this.grace = grace;
    }

    /**
     * An extension with its own grace period.
     *
     * @param grace how long leases released by other threads may take to come back
     * @return the extension
     */
    public static PoolLeakExtension withGrace(Duration grace) {
        return new PoolLeakExtension(grace);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put(context.getUniqueId(), PoolLeakCheck.snapshot());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        final PoolLeakCheck check = context.getStore(NS).remove(context.getUniqueId(), PoolLeakCheck.class);
        if (check != null) {
            check.assertNoLeaks(grace, context.getDisplayName() + " in " + context.getRequiredTestClass().getName());
        }
    }
}
