package org.spdl4j.engine;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test items that own something (like a pooled lease): each {@link Res} must be released exactly once, by the
 * consumer or by the pipeline's discard hook. {@link #outstanding()} says how many are still owned somewhere; a
 * second release is recorded as an error.
 */
final class TrackedResources {
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();

    /** One owned thing. */
    final class Res {
        final int id;
        private final AtomicBoolean done = new AtomicBoolean();

        Res(int id) {
            this.id = id;
        }

        void release() {
            if (done.compareAndSet(false, true)) {
                released.incrementAndGet();
            } else {
                errors.add("resource " + id + " released twice");
            }
        }

        @Override
        public String toString() {
            return "Res#" + id;
        }
    }

    Res create(int id) {
        created.incrementAndGet();
        return new Res(id);
    }

    /** The discard hook: releases a {@link Res}, or each {@link Res} of a list (an aggregate). */
    void discard(Object item) {
        if (item instanceof Res r) {
            r.release();
        } else if (item instanceof Iterable<?> all) {
            for (Object o : all) {
                discard(o);
            }
        } else {
            errors.add("discarded a " + item.getClass().getName() + ": " + item);
        }
    }

    int created() {
        return created.get();
    }

    int outstanding() {
        return created.get() - released.get();
    }

    ConcurrentLinkedQueue<String> errors() {
        return errors;
    }
}
