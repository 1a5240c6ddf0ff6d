package org.spdl4j.loader.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says when a decode runs past the loader's decode timeout while it runs, not only once it returns: a decoder stuck in
 * native code cannot be interrupted, and without this the run would wait on it at the end with nothing said. Each
 * decode thread stamps its current sample and start in its own {@link Running}; a daemon thread looks every second
 * and logs each decode past the timeout once (stage, sample, how long).
 *
 * <p><b>Threading:</b> {@link #started}/{@link #ended} on decode threads (their own holder only); the watcher reads.
 * <b>Cost:</b> two plain-ordered stores and a volatile one per decode, no allocation after a thread's first decode.
 */
final class DecodeWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DecodeWatch.class);
    private static final long TICK_NANOS = 1_000_000_000L;

    /** One decode thread's current decode. */
    static final class Running {
        private final Thread thread = Thread.currentThread();
        private String key;
        private long started;
        /** Bumped at each start and end: the watcher reads it first and last to see a consistent decode. */
        private volatile long generation;
        private long reported = -1;
    }

    private final String stage;
    private final long timeoutNanos;
    private final Set<Running> threads = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<Running> mine = ThreadLocal.withInitial(this::register);
    private final Thread watcher;
    private final Consumer<String> report;
    private volatile boolean closed;

    DecodeWatch(String stage, long timeoutNanos) {
        this(stage, timeoutNanos, LOG::error);
    }

    /**
     * Starts the watch.
     *
     * @param stage        the stage, for messages and the watcher's name
     * @param timeoutNanos the decode timeout
     * @param report       where each overdue decode is told (the log)
     */
    DecodeWatch(String stage, long timeoutNanos, Consumer<String> report) {
        this.stage = stage;
        this.timeoutNanos = timeoutNanos;
        this.report = report;
        this.watcher = new Thread(this::watch, "spdl4j-" + stage.replace(':', '-') + "-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    private Running register() {
        Running r = new Running();
        threads.add(r);
        return r;
    }

    /** Marks the start of a decode on this thread. */
    Running started(String key, long startNanos) {
        Running r = mine.get();
        r.key = key;
        r.started = startNanos;
        r.generation = r.generation + 1; // odd: running (the stores above are published by this volatile store)
        return r;
    }

    /** Marks its end. */
    static void ended(Running r) {
        r.generation = r.generation + 1; // even: idle
    }

    private void watch() {
        while (!closed) {
            LockSupport.parkNanos(TICK_NANOS);
            long now = System.nanoTime();
            for (Running r : threads) {
                long g = r.generation;
                if ((g & 1) == 0 || r.reported == g) {
                    continue;
                }
                String key = r.key;
                long started = r.started;
                if (r.generation != g || now - started <= timeoutNanos) {
                    continue;
                }
                r.reported = g;
                report.accept(stage + ": decoding " + key + " has run " + (now - started) / 1_000_000 + " ms, past the"
                    + " decode timeout of " + timeoutNanos / 1_000_000 + " ms, on thread " + r.thread.getName()
                    + "; it will fail when it returns, but a decoder stuck in native code cannot be interrupted: the"
                    + " other decode threads go on, and the loader waits for this one when it ends or closes. Skip"
                    + " this sample (a corrupt or hostile file?)");
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(watcher);
    }
}
