package org.spdl4j.offheap.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that fails a test class which leaves anything behind once its last test (and its
 * {@code @AfterAll} methods) ran: an engine thread ({@code spdl4j-*}) still alive, a buffer pool not full, and every
 * {@link LeftoverCheck} a module registers as a service (FFmpeg contexts from media-native's test-jar, device memory
 * from cuda-staging's tests). Resources that existed before the class are not counted. Checks are polled for a grace
 * period ({@code spdl4j.test.leftoverGraceMillis}, 3000 ms) since closing returns some resources on other threads.
 *
 * <p>Every test class of a module with off-heap's test-jar on its test classpath gets it: the test-jar registers it
 * for JUnit's extension auto-detection ({@code META-INF/services}), which the root pom's surefire configuration
 * turns on. A class that leaves something behind on purpose says so with {@link LeftoversExpected}. An explicit
 * {@code @ExtendWith(NoLeftoversExtension.class)} still works (JUnit registers an extension type once). Not meant for
 * test classes run in parallel in one JVM (the checks see the whole process).
 */
public final class NoLeftoversExtension implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(NoLeftoversExtension.class);
    private static final Duration GRACE = Duration.ofMillis(Long.getLong("spdl4j.test.leftoverGraceMillis", 3_000L));

    /** Created by JUnit. */
    public NoLeftoversExtension() {
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (context.getRequiredTestClass().isAnnotationPresent(LeftoversExpected.class)) {
            return;
        }
        List<LeftoverCheck> checks = new ArrayList<>(List.of(new EngineThreadsLeftoverCheck(),
                new PoolsLeftoverCheck()));
        ServiceLoader.load(LeftoverCheck.class).forEach(checks::add);
        for (LeftoverCheck c : checks) {
            c.before();
        }
        context.getStore(NS).put(context.getUniqueId(), new Checks(checks));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Checks checks = context.getStore(NS).remove(context.getUniqueId(), Checks.class);
        if (checks == null) {
            return;
        }
        long deadline = System.nanoTime() + GRACE.toNanos();
        String left;
        try {
            while ((left = checks.leftovers()) != null && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        } finally {
            for (LeftoverCheck c : checks.all()) {
                c.after();
            }
        }
        if (left != null) {
            throw new AssertionError(context.getRequiredTestClass().getName() + " left resources behind ("
                    + GRACE.toMillis() + " ms after its last test):\n" + left);
        }
    }

    /** The class's checks, kept in the JUnit store between its before and after callbacks. */
    private record Checks(List<LeftoverCheck> all) {
        String leftovers() {
            StringBuilder sb = null;
            for (LeftoverCheck c : all) {
                String left = c.leftovers();
                if (left != null) {
                    sb = sb == null ? new StringBuilder() : sb.append('\n');
                    sb.append("- ").append(c.getClass().getSimpleName()).append(": ").append(left);
                }
            }
            return sb == null ? null : sb.toString();
        }
    }
}
