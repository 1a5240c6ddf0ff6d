package org.spdl4j.examples.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;

/**
 * Records task spans (stage, thread, start, duration) into preallocated arrays and writes them as a Chrome / Perfetto
 * trace (the JSON "trace event" format: open it in ui.perfetto.dev or chrome://tracing).
 *
 * <p><b>Threading:</b> any number of threads record concurrently; each span claims an index with one atomic
 * increment (a contended add, acceptable because tracing is opt-in for diagnosis runs). Once {@code capacity} spans are
 * recorded, later ones are counted and dropped, so memory stays bounded on a long run. {@link #write} is called after
 * the recording threads are done.
 *
 * <p><b>Virtual threads</b> (a stage's blocking tasks, one thread each) are not tracks of their own, which would give a
 * trace as many tracks as tasks and a name table as large: a virtual task takes the lowest free <em>lane</em> of its
 * stage for its duration ({@code "<stage> task lane <k>"}), so a stage with N tasks in flight shows N tracks and each
 * lane shows its tasks one after the other. Lanes are claimed with a compare-and-set in a small array, up to
 * {@link #MAX_LANES} per stage; tasks beyond share the last lane (their spans may overlap there).
 *
 * <p><b>Allocation:</b> none per span once a platform thread has recorded its first one (its name is kept then), and
 * none per virtual task once its stage's lanes exist.
 */
public final class TaskTrace {
    /** Lanes per stage for tasks on virtual threads. */
    public static final int MAX_LANES = 256;

    private final long[] startNanos;
    private final long[] durationNanos;
    private final int[] threadIds;
    private final int[] stageIds;
    private final AtomicInteger next = new AtomicInteger();
    /** Spans past the capacity (a long run): counted, not kept. */
    private final java.util.concurrent.atomic.LongAdder dropped = new java.util.concurrent.atomic.LongAdder();
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger stageCount = new AtomicInteger();
    private final Map<Long, Integer> threadIndex = new ConcurrentHashMap<>();
    private final Map<Integer, String> threadNames = new ConcurrentHashMap<>();
    private final Map<String, Integer> stageIndex = new ConcurrentHashMap<>();
    private final long originNanos = System.nanoTime();
    /** Per stage id: lane k busy (1) or free (0). */
    private final Map<Integer, AtomicIntegerArray> laneBusy = new ConcurrentHashMap<>();
    /** Per stage id: the track id of lane k, 0 until the lane was first used (track ids start at 1 here). */
    private final Map<Integer, AtomicIntegerArray> laneTrack = new ConcurrentHashMap<>();

    /**
     * Creates a trace that keeps at most {@code capacity} spans.
     *
     * @param capacity how many spans to keep
     */
    public TaskTrace(int capacity) {
        this.startNanos = new long[capacity];
        this.durationNanos = new long[capacity];
        this.threadIds = new int[capacity];
        this.stageIds = new int[capacity];
    }

    /**
     * Wraps {@code fn} so that each call is recorded as a span of {@code stage} on the calling thread.
     *
     * @param stage the stage name shown on the span
     * @param fn    the function to time
     * @param <I>   input type
     * @param <O>   output type
     * @return the timed function
     */
    public <I, O> Function<I, O> wrap(String stage, Function<I, O> fn) {
        int stageId = stage(stage);
        AtomicIntegerArray busy = laneBusy.computeIfAbsent(stageId, id -> new AtomicIntegerArray(MAX_LANES));
        AtomicIntegerArray tracks = laneTrack.computeIfAbsent(stageId, id -> new AtomicIntegerArray(MAX_LANES));
        return in -> {
            if (Thread.currentThread().isVirtual()) {
                int lane = claimLane(busy);
                long t0 = System.nanoTime();
                try {
                    return fn.apply(in);
                } finally {
                    long t1 = System.nanoTime();
                    busy.set(lane, 0); // free for the next task (a shared last lane stays marked: harmless)
                    record(stageId, t0, t1, laneTrack(tracks, lane, stage));
                }
            }
            long t0 = System.nanoTime();
            try {
                return fn.apply(in);
            } finally {
                record(stageId, t0, System.nanoTime(), -1);
            }
        };
    }

    /**
     * {@return the id under which {@link #record(int, long, long)} records a stage's spans (registered on first use)}
     *
     * @param stage the stage name shown on its spans
     */
    public int stage(String stage) {
        return stageIndex.computeIfAbsent(stage, s -> stageCount.getAndIncrement());
    }

    /**
     * Records one span of a stage on the calling thread's track: for code that times itself instead of being
     * {@link #wrap wrapped} (a platform thread's span; a virtual thread gets a track of its own).
     *
     * @param stage      the stage's id, from {@link #stage(String)}
     * @param startNanos when the task started ({@link System#nanoTime()})
     * @param endNanos   when it ended
     */
    public void record(int stage, long startNanos, long endNanos) {
        record(stage, startNanos, endNanos, -1);
    }

    /** The lowest free lane, marked busy; the last lane when all are busy. */
    private static int claimLane(AtomicIntegerArray busy) {
        for (int k = 0; k < MAX_LANES - 1; k++) {
            if (busy.get(k) == 0 && busy.compareAndSet(k, 0, 1)) {
                return k;
            }
        }
        return MAX_LANES - 1;
    }

    /** The track of a lane, named on first use. */
    private int laneTrack(AtomicIntegerArray tracks, int lane, String stage) {
        int track = tracks.get(lane) - 1;
        if (track >= 0) {
            return track;
        }
        synchronized (tracks) { // once per lane: name it and publish its track id
            track = tracks.get(lane) - 1;
            if (track < 0) {
                track = threads.getAndIncrement();
                threadNames.put(track, stage + " task lane " + lane);
                tracks.set(lane, track + 1);
            }
            return track;
        }
    }

    private void record(int stageId, long t0, long t1, int laneTrack) {
        if (next.get() >= startNanos.length) { // full: count the span as dropped, never let the index wrap
            dropped.increment();
            return;
        }
        int i = next.getAndIncrement();
        if (i >= startNanos.length) {
            dropped.increment(); // lost the race for the last free entries
            return;
        }
        int tid = laneTrack;
        if (tid < 0) {
            Thread t = Thread.currentThread();
            tid = threadIndex.computeIfAbsent(t.threadId(), id -> {
                int index = threads.getAndIncrement();
                threadNames.put(index, t.getName());
                return index;
            });
        }
        startNanos[i] = t0 - originNanos;
        durationNanos[i] = t1 - t0;
        threadIds[i] = tid;
        stageIds[i] = stageId;
    }

    /** {@return spans recorded, including those dropped past the capacity} */
    public long spans() {
        return Math.min(next.get(), startNanos.length) + dropped.sum();
    }

    /**
     * Writes the trace JSON. Call after every recording thread has finished.
     *
     * @param file the {@code .json} file
     * @throws IOException when it cannot be written
     */
    public void write(Path file) throws IOException {
        String[] stages = new String[stageIndex.size()];
        stageIndex.forEach((name, id) -> stages[id] = name);
        int n = Math.min(next.get(), startNanos.length);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
            boolean first = true;
            for (Map.Entry<Integer, String> e : threadNames.entrySet()) {
                w.write(first ? "" : ",\n");
                first = false;
                w.write("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + e.getKey()
                    + ",\"args\":{\"name\":\"" + escape(e.getValue()) + "\"}}");
            }
            for (int i = 0; i < n; i++) {
                w.write(first ? "" : ",\n");
                first = false;
                w.write("{\"name\":\"" + escape(stages[stageIds[i]]) + "\",\"cat\":\"task\",\"ph\":\"X\",\"pid\":1,\"tid\":"
                    + threadIds[i] + ",\"ts\":" + micros(startNanos[i]) + ",\"dur\":" + micros(durationNanos[i]) + "}");
            }
            w.write("\n]}\n");
        }
    }

    private static String micros(long nanos) {
        return (nanos / 1000) + "." + String.format(Locale.ROOT, "%03d", nanos % 1000);
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
