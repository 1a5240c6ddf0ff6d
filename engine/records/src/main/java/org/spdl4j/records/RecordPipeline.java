package org.spdl4j.records;

import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.runtime.ThreadStopper;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.ring.ItemLink;
import org.spdl4j.engine.ring.PaddedClaimSequence;
import org.spdl4j.engine.ring.WorkSharingReader;
import org.spdl4j.engine.runtime.CloseWait;
import org.spdl4j.engine.runtime.EngineThreads;
import org.spdl4j.engine.runtime.PipelineControl;
import org.spdl4j.engine.runtime.StageAffinity;
import org.spdl4j.engine.runtime.StageFailures;
import org.spdl4j.engine.runtime.WaitStrategies;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.Timeouts;

/**
 * A running record pipeline (built by {@link RecordPipelineBuilder}): {@link RecordRing}s in off-heap memory (one,
 * plus one per transfer stage), a source thread, the stages' worker threads ({@code spdl4j-<pipeline>-<stage>-<n>})
 * and a consumer thread. On each ring the stages are chained Disruptor-style: a stage waits on the sequences of the
 * stage before it on that ring, and the ring's producer (the source or a transfer stage) is gated by the last stage
 * reading it (a transfer stage or the consumer).
 *
 * <p><b>Allocation:</b> the block, slots' flyweights and sequences at build; nothing per record. <b>Ownership:</b>
 * {@link #close()} stops and joins every thread, then frees the block (never while a thread might still touch it).
 * <b>Threading:</b> {@link #start()}, {@link #awaitCompletion(Duration)} and {@link #close()} from any thread.
 */
public final class RecordPipeline implements AutoCloseable {
    /** The source's name in stats and thread names. */
    public static final String SOURCE = "source";
    /** The consumer's name in stats and thread names. */
    public static final String CONSUMER = "consumer";
    private static final Logger LOG = LoggerFactory.getLogger(RecordPipeline.class);

    private final PipelineControl control;
    private final List<RecordRing> rings = new ArrayList<>();
    private final List<SequenceBarrier> barriers = new ArrayList<>();
    private final List<Runnable> workers = new ArrayList<>(); // each already wrapped by its stage's pinning
    private final Map<String, CpuSet> cpus;
    private final Map<String, StageAffinity> affinity = new HashMap<>();
    private final List<String> threadNames = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<StageStats> stats = new ArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);
    /** Counted down when the first {@link #close()} has finished (threads joined, rings freed or leaked). */
    private final CountDownLatch closeFinished = new CountDownLatch(1);
    /** The thread closing for a pipeline thread that called close() (it cannot join itself), or null. */
    private volatile Thread closer;
    private final int slotAlignment;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    RecordPipeline(String name, int recordLength, int capacity, int slotAlignment, WaitPolicy policy,
                   RecordSource source, PublishBatching sourceBatching, List<RecordPipelineBuilder.Stage> stages,
                   RecordConsumer consumer, Map<String, CpuSet> cpus) {
        this.control = new PipelineControl(name);
        this.cpus = cpus;
        this.slotAlignment = slotAlignment;
        int[] ends = endsPerRing(stages);
        RecordRing ring = newRing(capacity, recordLength, false, policy);
        StageStats sourceStats = new StageStats(name, SOURCE, 1, () -> 0L, 0);
        stats.add(sourceStats);
        add(SOURCE, 0, new RecordSourceWorker(control, SOURCE, ring, source, sourceStats.worker(0),
                WaitStrategies.idle(policy), ends[0], sourceBatching));

        Sequence[] previous = new Sequence[0];
        int segment = 0;
        for (RecordPipelineBuilder.Stage s : stages) {
            if (s.isTransfer()) {
                RecordRing from = ring;
                RecordRing next = newRing(s.outCapacity(), s.outRecordLength(), s.concurrency() > 1, policy);
                int nextEnds = ends[segment + 1];
                Sequence[] transfer = addStage(name, s.name(), from, ends[segment], previous, s.concurrency(),
                        s.budget(), policy, (i, reader, st, failures, end) -> new RecordTransferWorker(control,
                                s.name(), from, next, reader, s.mapper(), st.worker(i), failures, end,
                                WaitStrategies.idle(policy), WaitStrategies.idle(policy), nextEnds));
                ring.gateProducerOn(transfer);
                ring = next;
                previous = new Sequence[0];
                segment++;
            } else {
                RecordRing current = ring;
                previous = addStage(name, s.name(), ring, ends[segment], previous, s.concurrency(), s.budget(),
                        policy, (i, reader, st, failures, end) -> new RecordStageWorker(control, s.name(), current,
                                reader, s.transform(), null, st.worker(i), failures, end,
                                WaitStrategies.idle(policy), null));
            }
        }
        RecordRing last = ring;
        Sequence[] consumerSequences = addStage(name, CONSUMER, ring, ends[segment], previous, 1,
                FailureBudget.UNLIMITED, policy, (i, reader, st, failures, end) -> new RecordStageWorker(control,
                        CONSUMER, last, reader, null, consumer, st.worker(i), failures, end,
                        WaitStrategies.idle(policy), done));
        ring.gateProducerOn(consumerSequences);
        control.barriers(barriers); // a failure alerts them as close does: no worker runs on after it
    }

    /** End markers each ring needs: one per worker of the widest stage reading it (the consumer counts one). */
    private static int[] endsPerRing(List<RecordPipelineBuilder.Stage> stages) {
        int rings = 1;
        for (RecordPipelineBuilder.Stage s : stages) {
            rings += s.isTransfer() ? 1 : 0;
        }
        int[] ends = new int[rings];
        java.util.Arrays.fill(ends, 1);
        int segment = 0;
        for (RecordPipelineBuilder.Stage s : stages) {
            ends[segment] = Math.max(ends[segment], s.concurrency());
            segment += s.isTransfer() ? 1 : 0;
        }
        return ends;
    }

    private RecordRing newRing(int capacity, int recordLength, boolean multiProducer, WaitPolicy policy) {
        RecordRing ring = new RecordRing(capacity, recordLength, slotAlignment, multiProducer,
                WaitStrategies.consumer(policy));
        rings.add(ring);
        return ring;
    }

    /** Creates one worker of a stage. */
    @FunctionalInterface
    private interface WorkerFactory {
        Runnable create(int index, WorkSharingReader reader, StageStats stats, StageFailures failures,
                        RecordStageEnd end);
    }

    private Sequence[] addStage(String pipeline, String stage, RecordRing ring, int ends, Sequence[] after,
                                int concurrency, FailureBudget budget, WaitPolicy policy, WorkerFactory factory) {
        SequenceBarrier barrier = ring.barrier(after);
        barriers.add(barrier);
        PaddedClaimSequence claim = new PaddedClaimSequence();
        Sequence[] own = new Sequence[concurrency];
        for (int i = 0; i < concurrency; i++) {
            own[i] = new Sequence(-1L);
        }
        boolean shared = concurrency > 1;
        StageStats st = new StageStats(pipeline, stage, concurrency,
                () -> waiting(ring, after, shared ? claim.get() : own[0].get()), ring.capacity());
        stats.add(st);
        StageFailures failures = new StageFailures(control, stage, budget, st);
        RecordStageEnd end = new RecordStageEnd(own, ring, ends);
        for (int i = 0; i < concurrency; i++) {
            add(stage, i, factory.create(i, WorkSharingReader.overBarrier(barrier, claim, own[i], shared,
                    ItemLink.maxRun(ring.capacity())), st,
                    failures, end));
        }
        return own;
    }

    private static long waiting(RecordRing ring, Sequence[] upstream, long consumed) {
        long available = upstream.length == 0 ? ring.sequencer().getCursor() : minimum(upstream);
        return Math.max(0, Math.min(available - consumed, ring.capacity()));
    }

    private static long minimum(Sequence[] sequences) {
        long min = Long.MAX_VALUE;
        for (Sequence s : sequences) {
            min = Math.min(min, s.get());
        }
        return min;
    }

    private void add(String stage, int index, Runnable worker) {
        workers.add(affinity.computeIfAbsent(stage, s -> new StageAffinity(control.pipeline(), s, cpus.get(s),
                StageAffinity.KERNEL)).around(worker));
        threadNames.add("spdl4j-" + control.pipeline() + "-" + stage + "-" + index);
    }

    /**
     * Starts every thread (once).
     *
     * @return this pipeline
     * @throws IllegalStateException if it was closed
     */
    public RecordPipeline start() {
        if (closed.get()) {
            throw new IllegalStateException("record pipeline '" + control.pipeline() + "' is closed");
        }
        if (started.compareAndSet(false, true)) {
            synchronized (threads) { // start-up only: close() must see every started thread
                if (closed.get()) {
                    // close() ran between the check above and here (it sets the flag before it takes this lock, and
                    // copies the thread list under it): threads started now would write rings it has freed, unjoined.
                    throw new IllegalStateException("record pipeline '" + control.pipeline() + "' is closed");
                }
                for (int i = 0; i < workers.size(); i++) {
                    threads.add(Thread.ofPlatform().name(threadNames.get(i)).daemon(true)
                            .start(EngineThreads.prepared(workers.get(i))));
                }
            }
        }
        return this;
    }

    /**
     * Waits until the consumer has seen the end of the stream.
     *
     * @param timeout how long to wait; one too long for a {@code long} of nanoseconds (about 292 years, e.g.
     *                {@code ChronoUnit.FOREVER.getDuration()}) waits without a bound
     * @return {@code true} if the pipeline completed, {@code false} on timeout
     * @throws InterruptedException    if interrupted while waiting
     * @throws PipelineFailedException if a stage exceeded its budget or the source failed
     */
    public boolean awaitCompletion(Duration timeout) throws InterruptedException {
        // Saturated, not toNanos(): that throws ArithmeticException for FOREVER. The deadline may wrap; only the
        // difference deadline - now is used, which stays right for waits under 292 years.
        long deadline = System.nanoTime() + Timeouts.nanos(timeout);
        for (;;) {
            PipelineFailedException failure = control.failure();
            if (failure != null) {
                throw failure;
            }
            long left = deadline - System.nanoTime();
            if (done.await(Math.min(Math.max(left, 0), TimeUnit.MILLISECONDS.toNanos(10)), TimeUnit.NANOSECONDS)) {
                PipelineFailedException sourceFailure = control.sourceFailure();
                if (sourceFailure != null) {
                    throw sourceFailure;
                }
                return true;
            }
            if (left <= 0) {
                return false;
            }
        }
    }

    /** {@return the stats of the source, each stage and the consumer, in order} */
    public List<StageStats> stats() {
        return List.copyOf(stats);
    }

    /** {@return the rings, the source's first, for inspection (capacity, record length, whether freed)} */
    public List<RecordRing> rings() {
        return List.copyOf(rings);
    }

    /**
     * Stops and joins every thread within {@link EngineConfiguration#CLOSE_TIMEOUT_MILLIS}, then frees the ring's
     * block. Idempotent: a call while another thread closes waits until that close has finished (so that what its
     * caller frees next, what the source and consumer use, is no longer in use); a call from one of the pipeline's
     * own threads does not wait. The first call from one of them (a consumer that has seen enough) stops the pipeline
     * and returns at once; a daemon thread {@code spdl4j-<pipeline>-closer} joins the threads and frees the rings once
     * that thread has left. If a thread does not stop, the block is leaked (logged) rather than freed under it.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            awaitFirstClose();
            return;
        }
        if (isOwnThread(Thread.currentThread())) {
            // The source, a stage or the consumer closes its own pipeline: this thread cannot join itself (the rings
            // would be leaked as if it ignored interrupts). Stop now, so it leaves once it returns, and let a closer
            // thread join every thread and free the rings.
            stop();
            CloseWait.startCloser(control.pipeline(), this::closeNow, t -> closer = t);
            return;
        }
        closeNow();
    }

    private void closeNow() {
        try {
            stopJoinAndFree();
        } finally {
            closeFinished.countDown();
        }
    }

    private void stop() {
        control.stop();
        for (SequenceBarrier b : barriers) {
            b.alert();
        }
    }

    private boolean isOwnThread(Thread t) {
        synchronized (threads) {
            return threads.contains(t);
        }
    }

    /**
     * Waits for the close in progress on another thread. Bounded (the close timeout and a generous margin), so that
     * a caller is never held forever; keeps an interrupt for the caller and goes on waiting.
     */
    private void awaitFirstClose() {
        if (isOwnThread(Thread.currentThread())) {
            return; // the source, a stage or the consumer closing its pipeline: the first close is waiting for it
        }
        CloseWait.awaitFirst(closeFinished, () -> closer, boundMillis -> LOG.error("record pipeline '{}': close() "
                + "gave up waiting {} ms for the close in progress on another thread", control.pipeline(), boundMillis));
    }

    private void stopJoinAndFree() {
        stop();
        List<Thread> all;
        synchronized (threads) {
            all = List.copyOf(threads);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EngineConfiguration.CLOSE_TIMEOUT_MILLIS);
        boolean allStopped = ThreadStopper.interruptAndJoin(all, deadline); // keeps the caller's interrupt flag
        if (allStopped) {
            for (RecordRing ring : rings) {
                ring.free();
            }
        } else {
            LOG.error("record pipeline '{}': threads still alive after close; leaking its rings' off-heap blocks "
                    + "rather than freeing memory they may touch", control.pipeline());
        }
    }
}
