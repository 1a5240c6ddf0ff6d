package org.spdl4j.offheap.testing;

import java.time.Duration;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that fails a test which leaves any {@link org.spdl4j.offheap.BufferPool} short: after each test,
 * every live pool must be back to the number of leases it had out before the test (pools opened by the test: zero),
 * within a grace period ({@link #DEFAULT_GRACE}, 2 s, unless {@link #withGrace} gives another). The failure lists each
 * leaked lease with the stack that acquired it. Use {@code @ExtendWith(PoolLeakExtension.class)}, or
 * {@code @RegisterExtension static PoolLeakExtension leaks = PoolLeakExtension.withGrace(...)}.
 *
 * <p>Ships in off-heap's test-jar (type {@code test-jar}) for every module's tests. Not thread-safe across tests
 * run in parallel in one JVM (it sees every pool).
 */
public final class PoolLeakExtension implements BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PoolLeakExtension.class);
    /** How long leases released by background threads may take to come back, unless {@link #withGrace} says. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    private final Duration grace;

    /** An extension with the default grace period, {@link #DEFAULT_GRACE}. */
    public PoolLeakExtension() {
        this(DEFAULT_GRACE);
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
