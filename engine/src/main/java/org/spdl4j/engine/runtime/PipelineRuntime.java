package org.spdl4j.engine.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.FailureListener;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.PipelineSpec;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.Source;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.StageSpec;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.ring.ActiveWorkers;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.ring.ItemLink;
import org.spdl4j.engine.ring.ReorderWindow;
import org.spdl4j.engine.ring.SingleConsumerPoller;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.Timeouts;

/**
 * The running form of a {@link PipelineSpec}: its links, workers, threads and stats. Constructing it allocates every
 * ring and slot; {@link #start()} starts the threads; {@link #close()} stops and joins them.
 *
 * <p>Topology: link {@code i} feeds stage {@code i}; the last link feeds the consumer. A link's producer count is the
 * publishing threads of the stage before it (one for the source and single-threaded stages), its consumer count is
 * the worker threads of the stage after it.
 *
 * <p><b>Threading:</b> {@link #start()} and {@link #close()} from any thread (idempotent); {@link #next(long)} from
 * one consumer thread at a time.
 */
public final class PipelineRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PipelineRuntime.class);

    private final PipelineControl control;
    private final Source<?> source;
    private final List<StageWorker> workers = new ArrayList<>();
    private final List<StageAffinity> workerAffinity = new ArrayList<>(); // workerAffinity[i] pins workers[i]
    private final List<StageAffinity> stageAffinity = new ArrayList<>(); // per stage, source first
    private final StageAffinity.Pinner pinner;
    private final List<ExecutorService> virtualThreadExecutors = new ArrayList<>();
    private final List<StageStats> stats = new ArrayList<>();
    private final List<TaskTimeoutGuard> guards = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<AsyncDispatcher> dispatchers = new ArrayList<>();
    private final List<ReorderWindow> windows = new ArrayList<>();
    private final List<AggregateWorker> aggregators = new ArrayList<>();
    private final Map<String, ActiveWorkers> limits = new HashMap<>();
    private final ItemLink[] links;
    private final Discarder discarder;
    private final FailureListener onFailure;
    private final SinkReader sink;
    private final AtomicBoolean started = new AtomicBoolean();
    /**
     * Whether the consumer saw the pipeline started: read and written by the consumer's calls only (one thread at a
     * time, handed over with a happens-before), so the per-call check is a plain load, not {@link #started}'s.
     */
    private boolean startSeenByConsumer;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set by a close that left threads running: their rings are swept by {@link #finishClose()}. */
    private final AtomicBoolean deferredSweep = new AtomicBoolean();
    /** Set by a close that left the source's thread inside it: {@link #finishClose()} closes the source. */
    private final AtomicBoolean deferredSourceClose = new AtomicBoolean();
    /** Counted down when the first {@link #close()} has finished (threads joined, sweep done, source closed). */
    private final CountDownLatch closeFinished = new CountDownLatch(1);
    /** The thread running the first close, so that a discard hook calling close() on it does not wait for itself. */
    private volatile Thread closingThread;
    /** The thread closing for an engine thread that called close() (it cannot join itself), or null. */
    private volatile Thread closer;

    /**
     * Allocates the pipeline's rings, workers and stats; starts nothing.
     *
     * @param spec the validated description
     */
    public PipelineRuntime(PipelineSpec spec) {
        this(spec, StageAffinity.KERNEL);
    }

    /**
     * As {@link #PipelineRuntime(PipelineSpec)}, with threads pinned by {@code pinner} (tests: a refused pinning).
     */
    PipelineRuntime(PipelineSpec spec, StageAffinity.Pinner pinner) {
        this.pinner = pinner;
        String name = spec.name();
        this.control = new PipelineControl(name);
        this.discarder = new Discarder(name, spec.onDiscard());
        this.onFailure = spec.onFailure();
        List<StageSpec> stages = spec.stages();
        int n = stages.size();
        this.links = new ItemLink[n + 1];
        for (int i = 0; i <= n; i++) {
            boolean toSink = i == n;
            int producers = i == 0 ? 1 : stages.get(i - 1).publishers();
            links[i] = new ItemLink(toSink ? PipelineSpec.SINK_NAME : stages.get(i).name(),
                    toSink ? spec.sinkBuffer() : stages.get(i).options().ringCapacity(), producers > 1,
                    toSink ? 1 : consumersOf(stages.get(i)),
                    WaitStrategies.consumer(toSink ? spec.sinkWaitPolicy() : stages.get(i).options().waitPolicy()));
        }
        control.links(List.of(links));

        StageStats sourceStats = new StageStats(name, spec.sourceName(), 1, () -> 0L, 0);
        stats.add(sourceStats);
        this.source = spec.source().get();
        try {
            BoundedPublisher sourceOut = links[0].publisher(WaitStrategies.idle(spec.sourceWaitPolicy()),
                    control.running());
            workers.add(new SourceWorker(control, spec.sourceName(), sourceStats.worker(0), source, sourceOut,
                    batchMax(spec.sourcePublishBatching(), links[0]),
                    new EndOfStream(1, links[0].consumerCount()), discarder,
                    new StageFailures(control, spec.sourceName(), FailureBudget.UNLIMITED, sourceStats,
                    spec.onFailure())));
            pinWorkersAdded(name, spec.sourceName(), spec.sourceCpus());
            for (int i = 0; i < n; i++) {
                addStage(name, stages.get(i), links[i], links[i + 1]); // runs aggregator factories: user code
                pinWorkersAdded(name, stages.get(i).name(), stages.get(i).options().cpus());
            }
            ItemLink last = links[n];
            StageStats sinkStats = new StageStats(name, PipelineSpec.SINK_NAME, 1, last::occupancy,
                    last.capacity());
            stats.add(sinkStats);
            this.sink = new SinkReader(new SingleConsumerPoller(last), WaitStrategies.idle(spec.sinkWaitPolicy()),
                    control, sinkStats.worker(0));
        } catch (RuntimeException | Error e) {
            // No pipeline is returned, so nobody could close it: release what was created here (the source may
            // hold an open shard or stream) before the failure goes to the caller.
            for (ExecutorService executor : virtualThreadExecutors) {
                executor.shutdownNow();
            }
            try {
                source.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** The workers added since the last call are one stage's: they pin to its CPUs. */
    private void pinWorkersAdded(String pipeline, String stage, CpuSet cpus) {
        StageAffinity affinity = new StageAffinity(pipeline, stage, cpus, pinner);
        stageAffinity.add(affinity);
        while (workerAffinity.size() < workers.size()) {
            workerAffinity.add(affinity);
        }
    }

    /** {@return each stage's pinning, the source first (not the consumer: the caller's thread)} */
    List<StageAffinity> affinities() {
        return List.copyOf(stageAffinity);
    }

    private static int consumersOf(StageSpec stage) {
        return stage instanceof StageSpec.MapStage ? stage.options().startedConcurrency() : 1;
    }

    private void addStage(String pipeline, StageSpec stage, ItemLink in, ItemLink out) {
        StageOptions o = stage.options();
        int threadCount = consumersOf(stage);
        // an async or virtual-thread stage has one dispatcher writing its stats but `concurrency` tasks in flight:
        // its time shares are per task slot
        StageStats st = new StageStats(pipeline, stage.name(), threadCount,
                Math.max(threadCount, o.startedConcurrency()), in::occupancy, in.capacity());
        ActiveWorkers active = o.isAdjustable() ? new ActiveWorkers(o.startedConcurrency(), o.concurrency()) : null;
        if (active != null) {
            limits.put(stage.name(), active);
        }
        stats.add(st);
        StageFailures failures = new StageFailures(control, stage.name(), o.failureBudget(), st, onFailure);
        EndOfStream end = new EndOfStream(threadCount, out.consumerCount());
        // A timeout too long for a long of ns (ChronoUnit.FOREVER) is no limit: no guard, no watchdog.
        long timeoutNanos = o.taskTimeout() == null ? 0 : Timeouts.nanos(o.taskTimeout());
        if (timeoutNanos == Long.MAX_VALUE) {
            timeoutNanos = 0;
        }
        switch (stage) {
            case StageSpec.MapStage m -> {
                ReorderWindow window = o.order() == OutputOrder.INPUT && threadCount > 1
                        ? new ReorderWindow(o.effectiveReorderWindow()) : null;
                if (window != null) {
                    windows.add(window);
                }
                for (int w = 0; w < threadCount; w++) {
                    TaskTimeoutGuard guard = timeoutNanos > 0 ? new TaskTimeoutGuard(timeoutNanos, pipeline, stage.name(), w)
                            : null;
                    if (guard != null) {
                        guards.add(guard);
                    }
                    BoundedPublisher publisher = out.publisher(WaitStrategies.idle(o.waitPolicy()), control.running());
                    workers.add(new MapWorker(control, stage.name(), w, st.worker(w), in.reader(w), publisher,
                            window == null ? batchMax(o.publishBatching(), in) : 0,
                            m.fn(), window,
                            WaitStrategies.idle(o.waitPolicy()), failures, guard, end, discarder, active));
                }
            }
            case StageSpec.AsyncStage a -> addDispatcher(new AsyncDispatcher(control, stage.name(), st.worker(0),
                    new SingleConsumerPoller(in), out.publisher(WaitStrategies.idle(o.waitPolicy()), control.running()),
                    a.fn(), null, o.order(), o.startedConcurrency(), WaitStrategies.idle(o.waitPolicy()), failures,
                    timeoutNanos, end, discarder, active));
            case StageSpec.VirtualThreadStage v -> {
                warmUpVirtualThreads();
                ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual()
                        .name("spdl4j-" + pipeline + "-" + stage.name() + "-vt-", 0).factory());
                virtualThreadExecutors.add(executor);
                addDispatcher(new AsyncDispatcher(control, stage.name(), st.worker(0), new SingleConsumerPoller(in),
                        out.publisher(WaitStrategies.idle(o.waitPolicy()), control.running()), v.fn(), executor,
                        o.order(), o.startedConcurrency(), WaitStrategies.idle(o.waitPolicy()), failures, timeoutNanos,
                        end, discarder, active));
            }
            case StageSpec.AggregateStage g -> {
                AggregateWorker worker = new AggregateWorker(control, stage.name(), st.worker(0), in.reader(0),
                        out.publisher(WaitStrategies.idle(o.waitPolicy()), control.running()), g.aggregator().get(),
                        failures, end, discarder);
                aggregators.add(worker);
                workers.add(worker);
            }
            case StageSpec.DisaggregateStage d -> workers.add(new DisaggregateWorker(control, stage.name(),
                    st.worker(0), in.reader(0), out.publisher(WaitStrategies.idle(o.waitPolicy()),
                    control.running()), failures, end, discarder));
        }
    }

    /**
     * The most items a thread that batches publishes as one range: the longest run it takes from {@code in} (for the
     * source, which has no input, a quarter of its ring, at most {@link EngineConfiguration#MAX_RUN}), so a batch
     * holds no more items in flight than one input run; 0 when the stage publishes per item.
     */
    private static int batchMax(PublishBatching batching, ItemLink in) {
        return batching == PublishBatching.SHORT_TASKS ? ItemLink.maxRun(in.capacity()) : 0;
    }

    private void addDispatcher(AsyncDispatcher d) {
        dispatchers.add(d);
        workers.add(d);
    }

    /**
     * Starts every thread (once; later calls do nothing).
     *
     * @throws IllegalStateException if the pipeline was closed
     */
    public void start() {
        if (closed.get()) {
            throw new IllegalStateException("pipeline '" + control.pipeline() + "' is closed; build a new one");
        }
        if (!started.compareAndSet(false, true)) {
            return;
        }
        synchronized (threads) { // start-up only: close() must see every thread that was started
            if (closed.get()) {
                // close() ran between the check above and here (it sets the flag before it takes this lock, and
                // copies the thread list under it): starting now would run threads it can no longer stop.
                throw new IllegalStateException("pipeline '" + control.pipeline() + "' is closed; build a new one");
            }
            for (int i = 0; i < workers.size(); i++) {
                StageWorker w = workers.get(i);
                threads.add(Thread.ofPlatform().name(w.threadName()).daemon(true)
                        .unstarted(EngineThreads.prepared(workerAffinity.get(i).around(w))));
            }
            if (!guards.isEmpty()) {
                threads.add(Thread.ofPlatform().name("spdl4j-" + control.pipeline() + "-watchdog-0").daemon(true)
                        .unstarted(EngineThreads.prepared(new TimeoutWatchdog(guards, control.running()))));
            }
            for (Thread t : threads) {
                t.start();
            }
        }
    }

    /**
     * Takes the next item, starting the pipeline if needed.
     *
     * @param timeoutNanos how long to wait
     * @return the item, or {@code null} at end of stream
     * @throws TimeoutException     if none came in time
     * @throws InterruptedException if interrupted while waiting
     */
    public Object next(long timeoutNanos) throws TimeoutException, InterruptedException {
        if (!startSeenByConsumer) {
            if (!started.get()) {
                start();
            }
            startSeenByConsumer = true;
        }
        return sink.next(timeoutNanos);
    }

    /** {@return the epoch of the item last returned by {@link #next(long)}} */
    public long lastEpoch() {
        return sink.lastEpoch();
    }

    /** {@return whether the consumer has reached end of stream} */
    public boolean isEnded() {
        return sink.isEnded();
    }

    /**
     * {@return whether {@link #close()} was called and every engine thread (stage threads and virtual-thread tasks)
     * has ended} False after a close that timed out while a stage function ignored interrupts; true once it ends.
     */
    public boolean isTerminated() {
        if (closeFinished.getCount() != 0) { // not closed, or a close still sweeping into the discard hook
            return false;
        }
        Thread c = closer;
        if (c != null && c.isAlive()) {
            return false;
        }
        synchronized (threads) { // start() may still be adding threads when close() races it
            for (Thread t : threads) {
                if (t.isAlive()) {
                    return false;
                }
            }
        }
        for (ExecutorService executor : virtualThreadExecutors) {
            if (!executor.isTerminated()) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@return the adjustable limit of a stage built with {@link StageOptions#withMaxConcurrency}, or {@code null}}
     *
     * @param stage the stage's name
     */
    public ActiveWorkers limit(String stage) {
        return limits.get(stage);
    }

    /** {@return the stats of every stage: the source first, the consumer ("sink") last} */
    public List<StageStats> stats() {
        return List.copyOf(stats);
    }

    /**
     * Stops the pipeline: stops every wait, interrupts every thread (stage functions that block or sleep), and joins
     * them within {@link EngineConfiguration#CLOSE_TIMEOUT_MILLIS}, re-interrupting threads that swallow interrupts.
     * Then sweeps what the pipeline will never deliver (items in rings and in the consumer's buffer, results in
     * reorder windows and async task entries, and each aggregator's partial aggregate, flushed) into the discard
     * hook. Idempotent: a call while another thread closes waits until that close has finished (so that what it
     * frees afterwards, e.g. the pools the discard hook returns to, is no longer in use). Threads still alive after
     * the bound are logged by name, and the sweep is skipped (it would race them). Called on one of the pipeline's own
     * threads (a stage function closing its own pipeline, on a stage thread or in a virtual-thread task), it stops the
     * pipeline and returns at once; a daemon thread {@code spdl4j-<pipeline>-closer} joins, sweeps and closes the
     * source once that thread has left its task.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            awaitFirstClose();
            return;
        }
        if (isCallingThreadOwn()) {
            // A stage function (or a discard hook on an engine thread or in a virtual-thread task) closes its own
            // pipeline: this thread cannot join itself, and waiting for it would time out (and then sweep under a
            // running task). Stop now, so the function's worker or task leaves once it returns, and let a closer
            // thread join, sweep and close the source.
            control.stop();
            CloseWait.startCloser(control.pipeline(), this::closeNow, t -> closer = t);
            return;
        }
        closeNow();
    }

    private void closeNow() {
        closingThread = Thread.currentThread();
        try {
            stopAndSweep();
        } finally {
            closeFinished.countDown();
        }
    }

    /** {@return whether the calling thread is one close() joins: a stage thread, or a virtual-thread task's} */
    private boolean isCallingThreadOwn() {
        if (AsyncDispatcher.isVirtualTaskOf(control)) {
            return true;
        }
        Thread t = Thread.currentThread();
        synchronized (threads) {
            return threads.contains(t);
        }
    }

    private void awaitFirstClose() {
        Thread self = Thread.currentThread();
        if (closingThread == self || discarder.isCallingThreadInHook()) {
            // Called back from the close in progress, or from this pipeline's discard hook on any thread (a late
            // async or virtual-thread result discarded on its own thread): the first close may wait for this thread.
            return;
        }
        if (isCallingThreadOwn()) {
            return; // a stage function or discard hook on a thread of this pipeline: the first close waits for it
        }
        // The first close joins within CLOSE_TIMEOUT_MILLIS, then sweeps into the hook and closes the source; bounded
        // all the same (CloseWait), and past the bound it says which thread closes and where it is.
        CloseWait.awaitFirst(closeFinished, () -> closer, boundMillis -> {
            Thread first = closingThread;
            LOG.error("pipeline '{}': close() gave up waiting {} ms for the close in progress on thread {}, which "
                    + "is at:{}\nWhat the pipeline's discard hook returns may still be in use. A lock held around "
                    + "close() that the hook needs, or discard hooks of two pipelines closing each other, cause "
                    + "this.", control.pipeline(), boundMillis, first == null ? "?" : first.getName(),
                    first == null ? "" : ThreadStopper.stackOf(first));
        });
    }

    private void stopAndSweep() {
        control.stop();
        List<Thread> all;
        synchronized (threads) {
            all = List.copyOf(threads);
        }
        for (ExecutorService executor : virtualThreadExecutors) {
            executor.shutdownNow(); // interrupts the virtual threads running tasks
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EngineConfiguration.CLOSE_TIMEOUT_MILLIS);
        ThreadStopper.interruptAndJoin(all, deadline);
        // An interrupted closing thread still stops and sweeps everything (else every item in flight would leak); its
        // flag is set again at the end.
        boolean interrupted = Thread.interrupted();
        for (ExecutorService executor : virtualThreadExecutors) {
            for (;;) {
                long left = deadline - System.nanoTime();
                try {
                    if (left > 0 && !executor.awaitTermination(left, TimeUnit.NANOSECONDS)) {
                        LOG.error("pipeline '{}': virtual-thread tasks still running after close; a stage function "
                                + "ignores interrupts", control.pipeline());
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        boolean allEnded = true;
        for (Thread t : all) {
            if (t.isAlive()) {
                allEnded = false;
                LOG.error("pipeline '{}': thread {} still alive after close ({} ms); its stage function ignores "
                        + "interrupts. It is at:{}", control.pipeline(), t.getName(),
                        EngineConfiguration.CLOSE_TIMEOUT_MILLIS, ThreadStopper.stackOf(t));
            }
        }
        if (allEnded) {
            sweepUndelivered();
        } else {
            deferredSweep.set(true);
            LOG.error("pipeline '{}': items left in its rings are handed to the discard hook only once those threads "
                    + "end (Pipeline.finishClose)", control.pipeline());
        }
        Thread sourceThread = all.isEmpty() ? null : all.get(0); // started first, from workers.get(0)
        if (sourceThread != null && sourceThread.isAlive()) {
            // A source is single-threaded: closing it under the thread still inside next() could release what that
            // call is about to hand out. Leave it (logged above with the thread's stack) to finishClose.
            deferredSourceClose.set(true);
            LOG.error("pipeline '{}': its source is closed only once its thread leaves it", control.pipeline());
        } else {
            closeSource();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeSource() {
        try {
            source.close();
        } catch (RuntimeException e) {
            LOG.warn("pipeline '{}': closing the source threw", control.pipeline(), e);
        }
    }

    /**
     * Finishes a close that found threads still running: once every one has ended, hands what was left in the rings
     * to the discard hook and closes the source, once. Idempotent; any thread.
     *
     * @return true when the pipeline is terminated and nothing is left to sweep; false while a thread still runs
     *         (or before {@link #close()})
     */
    public boolean finishClose() {
        if (!isTerminated()) {
            return false;
        }
        // isTerminated saw every thread dead (Thread.isAlive: their last actions happen-before this)
        if (deferredSweep.compareAndSet(true, false)) {
            sweepUndelivered();
        }
        if (deferredSourceClose.compareAndSet(true, false)) {
            closeSource();
        }
        return true;
    }

    /**
     * Starts (and joins) one virtual thread at build time, so the JVM's virtual-thread scheduler and its carrier
     * threads exist before the pipeline starts, rather than being created during its first items (tens of ms).
     * Once per JVM in effect: later calls cost one short-lived virtual thread.
     */
    private static void warmUpVirtualThreads() {
        try {
            Thread.ofVirtual().start(() -> { }).join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Every engine thread has ended (joined: their writes happen-before this): hands every undelivered item to the
     * discarder. Virtual-thread tasks still running discard their own results when they complete.
     */
    private void sweepUndelivered() {
        for (AsyncDispatcher d : dispatchers) {
            d.abandonInFlight();
        }
        for (ReorderWindow w : windows) {
            w.drainUndelivered(discarder::discard);
        }
        for (ItemLink link : links) {
            link.drainUntaken(discarder::discard);
        }
        for (AggregateWorker a : aggregators) { // last: an aggregator may hold parts of the items swept above
            try {
                a.flushOnStop();
            } catch (RuntimeException e) {
                LOG.warn("pipeline '{}': flushing an aggregator on close threw; what it held may be lost",
                        control.pipeline(), e);
            }
        }
        if (discarder.count() > 0) {
            LOG.debug("pipeline '{}': {} undelivered item(s) discarded on close", control.pipeline(),
                    discarder.count());
        }
    }
}
