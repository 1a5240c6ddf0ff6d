package org.spdl4j.engine.ring;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.Sequencer;
import com.lmax.disruptor.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.spdl4j.engine.stats.WaitKind;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * One worker's view of an {@link ItemLink}: claims runs of published input sequences (shared with the stage's other
 * workers), hands out their sequences one at a time (the slot is read through the cursor), and releases the run's slots once its last item was taken.
 *
 * <p>Protocol: {@link #next()} hands out the next sequence of the worker's current run. When the run is used up it
 * claims a new one: a single consumer takes every published sequence up to {@code maxRun} (no CAS, like Disruptor's
 * batch event processor); a worker of a shared stage claims, with one CAS on the stage's {@link PaddedClaimSequence},
 * {@code min(maxRun, published / workers)} (at least one) of the sequences already published past the claim counter
 * (small runs while the ring is nearly empty keep the workers evenly loaded), or, when none is, the next sequence
 * alone, and waits for it.
 * A shared run never extends past an end-of-stream marker, so each worker still takes exactly one. The caller reads
 * the slot through the reader ({@link #isEnd()}, {@link #epoch()}, {@link #take()}, which clears the reference) and
 * calls {@link #release()}, which stores the run's last sequence into the worker's gating sequence after the run's
 * last item: one release store per run, not per item. A run's slots go back to the producer when its last item was taken, before that item's task.
 *
 * <p><b>Threading:</b> one thread only (the owning worker). <b>Blocking:</b> {@link #next()} waits by the link's wait
 * strategy and throws {@link AlertException} when the link is alerted (close or failure). <b>Allocation:</b> none.
 */
public final class WorkSharingReader extends SlotCursor {
    private final Sequencer sequencer;
    private final SequenceBarrier barrier;
    private final PaddedClaimSequence claim;
    private final Sequence own;
    private final boolean shared;
    private final int workers;
    private final int maxRun;
    private long runEnd = -1L;
    private long cachedAvailable = -1L;
    private long lastWaitNanos;
    /** Where waits for publication are reported while they last, or {@code null} (see {@link #reportWaitsTo}). */
    private WorkerStats waits;

    WorkSharingReader(Sequencer sequencer, ItemSlots slots, SequenceBarrier barrier, PaddedClaimSequence claim,
                      Sequence own, int workers, int maxRun) {
        super(slots);
        this.sequencer = sequencer;
        this.barrier = barrier;
        this.claim = claim;
        this.own = own;
        this.shared = workers > 1;
        this.workers = workers;
        this.maxRun = Math.max(1, maxRun);
    }

    /**
     * Creates a reader over any Disruptor sequencer's barrier, for links whose slots are not {@link ItemSlots} (record
     * rings). Only {@link #next()}, {@link #release()}, {@link #releaseThroughCurrent()} and
     * {@link #sequence()} apply. A shared reader claims one sequence at a time here (it cannot see the record ring's
     * end markers, of which each worker must take one); a single consumer still releases once per run.
     *
     * @param barrier the barrier the worker waits on (the cursor, or the sequences of the stage before)
     * @param claim   the claim counter shared by the worker's stage
     * @param own     the worker's own sequence, gating the producer or the next stage
     * @param shared  whether the stage has more than one worker
     * @param maxRun  the most sequences a single consumer takes per run (1: release every item at once)
     * @return the reader, for the owning worker's thread only
     */
    public static WorkSharingReader overBarrier(SequenceBarrier barrier, PaddedClaimSequence claim, Sequence own,
                                                boolean shared, int maxRun) {
        return new WorkSharingReader(null, null, barrier, claim, own, shared ? 2 : 1, shared ? 1 : maxRun);
    }

    /**
     * Reports every later wait for publication to {@code stats} as starved time, while it lasts and when it ends
     * ({@link WorkerStats#waitStarted}, {@link WorkerStats#waitEnded}): the owner then records no
     * {@link #lastWaitNanos()} itself. Call before the first {@link #next()}, on the owning thread or before it
     * starts.
     *
     * @param stats the owning worker's stats, or {@code null} to report nothing
     */
    public void reportWaitsTo(WorkerStats stats) {
        this.waits = stats;
    }

    /**
     * Hands out the next sequence of the current run, claiming a new run (and waiting for it) when this one is used.
     * An item link's slot is then read through the cursor ({@link #isEnd()}, {@link #epoch()}, {@link #take()}), a
     * record ring's by sequence; either is given back with {@link #release()}.
     *
     * @return the sequence
     * @throws AlertException when the barrier was alerted (the pipeline closes or failed)
     * @throws InterruptedException when interrupted while blocked in a blocking wait strategy
     */
    public long next() throws AlertException, InterruptedException {
        // A volatile read per item: once alerted, stop even inside a run (close must not wait for a full ring to
        // drain through a slow stage function).
        barrier.checkAlert();
        lastWaitNanos = 0;
        long s = sequence + 1;
        if (s > runEnd) {
            s = shared ? claimSharedRun() : openRun(s);
        }
        sequence = s;
        return s;
    }

    /**
     * Claims the next run, waiting for its first sequence, for a worker that walks the whole run itself
     * ({@link #takeInRun}, {@link #epochInRun}) instead of one {@link #next()} per item: the per-item checks of
     * {@link #next()} (the alert, the run's end) are then the caller's loop bound. The run is
     * {@code [returned value, runEnd()]}; the caller ends it with {@link #finishRun()} or, at an end marker, with
     * {@link #moveTo} and {@link #releaseAndRetire()}. Call only when the current run is used up
     * ({@link #hasRunLeft()} is {@code false}).
     *
     * @return the run's first sequence
     * @throws AlertException when the barrier was alerted (the pipeline closes or failed)
     * @throws InterruptedException when interrupted while blocked in a blocking wait strategy
     */
    public long claimRun() throws AlertException, InterruptedException {
        barrier.checkAlert();
        lastWaitNanos = 0;
        long s = sequence + 1;
        return shared ? claimSharedRun() : openRun(s);
    }

    /**
     * {@return the slots the current run lies in, for a worker that reads the run in a loop of its own (keeping them
     * in a local) instead of through {@link #takeInRun} and {@link #epochInRun}}
     */
    public ItemSlots runSlots() {
        return slots();
    }

    /** {@return the last sequence of the current run} */
    public long runEnd() {
        return runEnd;
    }

    /**
     * Takes the item at a sequence of the current run (see {@link #claimRun()}), clearing its slot.
     *
     * @param s a sequence of the current run, not yet taken
     * @return the item, or {@code null} when the slot is an end marker (left in place; a shared run holds one only
     *         as its first sequence)
     */
    public Object takeInRun(long s) {
        return slots().takeUnlessEnd(s);
    }

    /**
     * {@return the epoch of the item at a sequence of the current run}
     *
     * @param s a sequence of the current run
     */
    public long epochInRun(long s) {
        return slots().epoch(s);
    }

    /**
     * Moves the cursor to a sequence of the current run: the last one taken, before {@link #releaseAndRetire()} or
     * {@link #release()} at an end marker or a stop.
     *
     * @param s a sequence of the current run
     */
    public void moveTo(long s) {
        sequence = s;
    }

    /** Ends the current run: every slot of it was taken; gives them back to the producer (one release store). */
    public void finishRun() {
        sequence = runEnd;
        own.set(runEnd);
    }

    /** Single consumer: the run is every published sequence from {@code s}, at most {@code maxRun}. */
    private long openRun(long s) throws AlertException, InterruptedException {
        awaitPublished(s);
        runEnd = Math.min(cachedAvailable, s + maxRun - 1);
        return s;
    }

    /**
     * Shared stage: when sequences past the claim counter are published already, claims a run of them; otherwise
     * claims exactly the next sequence and waits for it (a waiting worker owns what it waits for, so no worker's
     * gating sequence goes stale while it waits and the producer is never held back by a parked worker).
     */
    private long claimSharedRun() throws AlertException, InterruptedException {
        for (;;) {
            long current = claim.prepareClaim(own);
            long first = current + 1;
            long last = first;
            if (maxRun > 1 && isPublished(first)) {
                long n = Math.max(1, Math.min(maxRun, (cachedAvailable - current) / workers));
                last = lastBeforeEnd(first, first + n - 1);
            }
            if (claim.tryClaim(current, last)) {
                runEnd = last;
                awaitPublished(first); // returns at once when the run was published already
                return first;
            }
        }
    }

    /** Whether {@code s} is published, refreshing the cached bound without waiting. */
    private boolean isPublished(long s) throws AlertException, InterruptedException {
        if (s <= cachedAvailable) {
            return true;
        }
        if (barrier.getCursor() < s) { // volatile read: nothing claimed up to s yet, so nothing to take
            return false;
        }
        try {
            // The cursor is past s, so the wait strategy returns at once; with several producers the barrier answers
            // the highest contiguous published sequence (acquire), which may still be below s.
            cachedAvailable = Math.max(cachedAvailable, barrier.waitFor(s));
        } catch (TimeoutException e) {
            throw AlertException.INSTANCE;
        }
        return s <= cachedAvailable;
    }

    /**
     * The last sequence of {@code [first, last]} to claim so that the run holds at most one end marker, as its first
     * sequence. The slots are published and cannot be overwritten (our gating sequence is below {@code first}), and
     * their end marker is written only before publication, so reading it before the claim is safe.
     */
    private long lastBeforeEnd(long first, long last) {
        ItemSlots slots = slots();
        if (slots.isEnd(first)) {
            return first;
        }
        for (long s = first + 1; s <= last; s++) {
            if (slots.isEnd(s)) {
                return s - 1;
            }
        }
        return last;
    }

    private void awaitPublished(long s) throws AlertException, InterruptedException {
        if (isPublished(s)) { // usually: the producer moved on since our last look; no clock read, nothing waited
            return;
        }
        long start = System.nanoTime();
        WorkerStats w = waits;
        if (w != null) {
            w.waitStarted(WaitKind.STARVED, start, 1); // per wait, not per item: readers see it while it lasts
        }
        try {
            // With several producers waitFor may return below s at once: s is claimed but not yet published (a
            // record transfer worker claims its output slot before its mapper runs, which may take long). The wait
            // strategy does not cover that case, so back off here: spin, yield, then park up to 1 ms.
            int retries = 0;
            while ((cachedAvailable = barrier.waitFor(s)) < s) { // acquire: slot contents written before publish
                barrier.checkAlert();
                retries++;
                if (retries < 100) {
                    Thread.onSpinWait();
                } else if (retries < 200) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(Math.min(1_000_000L, 1_000L << Math.min(10, retries - 200)));
                }
            }
        } catch (TimeoutException e) {
            throw AlertException.INSTANCE; // only timeout strategies throw this; the engine uses none
        } finally {
            // Also when alerted or interrupted: a wait left open would grow in every reader's figures forever.
            long end = System.nanoTime();
            lastWaitNanos += end - start;
            if (w != null) {
                w.waitEnded(end);
            }
        }
    }

    /**
     * Parks this worker while it is past its stage's {@link ActiveWorkers} limit; call only between claims (the
     * current run used up and released: {@link #hasRunLeft()} is {@code false}), on a shared stage, never for worker 0.
     *
     * <p>Why the ring stays safe: while parked, this worker's gating sequence reads {@link Long#MAX_VALUE}, so it
     * does not hold the producer back. That is safe because some worker that is not parked still gates below every
     * unclaimed sequence: worker 0 never parks, and a working worker's sequence is always at or below the claim
     * counter (a released run's end, or the counter itself raised in {@link PaddedClaimSequence#prepareClaim}). On
     * waking it stores the claim counter's value into its sequence before it claims (as any claim attempt does):
     * everything up to that value is claimed and protected by its claimer, and any sequence it claims later lies
     * above it; a producer that read the minimum while this sequence was {@code MAX_VALUE} read a working worker's
     * sequence, itself at or below the counter then, so it never overwrote a slot past it. At end of stream the first
     * workers to take end markers wait in {@link ActiveWorkers#openForEnd} until every parked worker has rejoined
     * before they stop gating, so the remaining end markers, one per parked worker, stay protected.
     *
     * <p>Parked time counts in none of the worker's shares (busy, starved, back-pressured). <b>Allocation:</b> none.
     *
     * @param active  the stage's limit
     * @param index   this worker's index in the stage, at least 1
     * @param running the pipeline's run flag
     * @return {@code true} to go on claiming; {@code false} when the pipeline stopped while parked
     * @throws AlertException       when the link was alerted (close, failure) while parked
     * @throws InterruptedException when interrupted while parked
     */
    public boolean parkWhileInactive(ActiveWorkers active, int index, RunFlag running)
            throws AlertException, InterruptedException {
        active.announce(index); // volatile: openForEnd either sees this worker counted or this worker sees ending
        try {
            if (!active.keepsParked(index)) {
                return true; // the limit rose, or the stream ends: our sequence was never given up
            }
            // Release store: our reads of released slots happened before; from now on we gate nothing.
            own.set(Long.MAX_VALUE);
            while (active.keepsParked(index)) {
                if (!running.isRunning()) {
                    return false;
                }
                barrier.checkAlert();
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while parked past the stage's concurrency limit");
                }
                active.parkOnce();
            }
            // Rejoin before anyone may rely on us: caught up to the claim counter (release store).
            own.set(claim.get());
            return true;
        } finally {
            active.rejoined(index); // after the store above: openForEnd may now let the end takers retire
        }
    }

    /** {@return nanoseconds the last {@link #next()} waited for publication, 0 when the sequence was ready} */
    public long lastWaitNanos() {
        return lastWaitNanos;
    }

    /**
     * {@return whether the next {@link #next()} is served from the current run, without claiming or waiting}
     * Workers use it to settle per-run bookkeeping (sampled stats) before they may wait.
     */
    public boolean hasRunLeft() {
        return sequence < runEnd;
    }

    /**
     * Gives back the end marker's slot and stops gating the producer for good. A worker that has left must not hold
     * the ring back: the other workers still need their end markers, and with fewer slots than workers the
     * producer could otherwise never publish them (the departed workers' sequences would pin the ring).
     */
    public void releaseAndRetire() {
        own.set(sequence);
        sequencer.removeGatingSequence(own); // CAS on the ring's gating array; producers read it as a volatile array
    }

    /**
     * Gives back every slot up to and including the last {@link #next()}'s, even in the middle of a run: for a worker
     * that stops at the end marker it just took. {@link #release()} would store nothing there when the run goes on
     * past the marker (a single consumer's run may hold several end markers), leaving the worker's sequence before
     * the marker; a wider stage reading through that sequence, and so the producer, would wait for it forever.
     */
    public void releaseThroughCurrent() {
        own.set(sequence); // release store: our reads of the slots up to the marker happen before their reuse
    }

    /**
     * Called after taking the item of the last {@link #next()}: gives the run's slots back to the producer once the
     * run's last item was taken (before that, a no-op).
     */
    public void release() {
        if (sequence == runEnd) {
            // Release store: our reads of the run's slots (and the cleared references) happen before the producer
            // reuses them.
            own.set(sequence);
        }
    }
}
