package org.spdl4j.engine.runtime;

import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.Source;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.ring.ItemSlots;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The source's thread: pulls items from the {@link Source} and publishes them into the first link until the source
 * ends, throws, or the pipeline stops. A throwing source ends the stream normally (what was emitted still flows) and
 * the consumer then gets the source's failure instead of the end. Task time = time inside {@link Source#next()},
 * sampled while calls are short ({@link SampledTaskTimer}).
 *
 * <p><b>Publish batching</b> (only when the builder asked for {@link PublishBatching#SHORT_TASKS}; the default is per
 * item): while the last timed call took less than {@link EngineConfiguration#PUBLISH_BATCH_BELOW_NANOS}, each item is
 * written straight into the next claimed slot of the first ring (the source is its only producer and claims its
 * slots itself, see {@link BoundedPublisher#ownsClaims()}), and the written range is published when it holds
 * {@code batchMax} items (a quarter of the ring, at most {@link EngineConfiguration#MAX_RUN}), when the ring is full,
 * after a slow call (its item last, which keeps the source's order), and at the source's end or failure. Written
 * slots are ring slots, so the items in flight stay within the ring's capacity, and a stop leaves them to the
 * close-time sweep.
 */
final class SourceWorker extends StageWorker {
    private static final int RUN_DONE = 0;
    private static final int ENDED = 1;
    private static final int STOPPED = 2;

    private final Source<?> source;
    private final BoundedPublisher out;
    private final int batchMax; // 0: per item
    private final EndOfStream end;
    private final Discarder discarder;
    private final SampledTaskTimer timer;
    /** Failures the source reports without ending (a bad shard it skips): counted, never against a budget. */
    private final StageFailures reported;

    SourceWorker(PipelineControl control, String stage, WorkerStats stats, Source<?> source, BoundedPublisher out,
                 int batchMax, EndOfStream end, Discarder discarder, StageFailures reported) {
        super(control, stage, 0, stats);
        if (batchMax > 0 && !out.ownsClaims()) {
            throw new IllegalArgumentException("a batching source must be its ring's only producer");
        }
        this.source = source;
        this.out = out;
        out.reportWaitsTo(stats); // the publisher reports its waits for room while they last
        this.batchMax = batchMax;
        this.end = end;
        this.discarder = discarder;
        this.timer = new SampledTaskTimer(stats);
        this.reported = reported;
    }

    @Override
    void work() {
        boolean ended;
        ReportedFailures.bind(reported, stats); // once: failures the source reports and goes on after
        try {
            ended = loop();
        } finally {
            ReportedFailures.unbind();
            timer.settle(); // the end, or closed mid-run: count every call that returned
        }
        if (ended && end.workerFinished()) {
            end.propagate(out);
        }
    }

    /** {@return {@code true} at the source's end or failure, {@code false} when the pipeline stopped} */
    private boolean loop() {
        for (;;) {
            if (batchMax > 0 && timer.lastTimedNanos() < EngineConfiguration.PUBLISH_BATCH_BELOW_NANOS) {
                int outcome = inPlaceRun();
                if (outcome != RUN_DONE) {
                    return outcome == ENDED;
                }
                continue;
            }
            long start = timer.start(); // 0 when this call is not timed
            Object item;
            try {
                item = source.next();
            } catch (Exception e) {
                return failed(e);
            }
            timer.stop(start);
            clearTaskInterrupt();
            if (item == null) {
                return true;
            }
            stats.onItemIn();
            if (!out.publish(item, source.epoch())) {
                discarder.discard(item);
                return false;
            }
            stats.onItemOut();
        }
    }

    /**
     * One batch, with the loop's state in locals: the slots, the claim counter and its cached limit, and the sampled
     * timer's untimed budget. Most of a batch is a call-free stretch of untimed calls into claimed room: per item the
     * call, the interrupt check and the write into the next claimed slot, the counts once per stretch (in a
     * {@code finally}, so an {@code Error} escaping the source still counts what it returned). A timed call or a full
     * claim takes one step of the general loop. The items-in count, the back-pressure clock and the publication (one
     * release store of the cursor) are per batch.
     *
     * @return {@link #RUN_DONE}, {@link #ENDED} (the source ended or failed; what it emitted is published) or
     *         {@link #STOPPED}
     */
    private int inPlaceRun() {
        ItemSlots dst = out.slots();
        // The loop's state in locals: its volatile loads (interrupt flag) would otherwise make it reload every field
        // on the way to the array once per item.
        Object[] dstRefs = dst.refs();
        int dstMask = dst.mask();
        Source<?> source = this.source;
        PipelineControl control = this.control;
        boolean refsOnly = !dst.epochsWritten(); // no epoch written yet: an item of epoch 0 is a reference store
        long o = out.claimedTo(); // the last sequence written
        long published = o;       // the last one published
        long limit = out.claimLimit();
        int budget = timer.untimedBudget();
        int untimed = 0;
        int taken = 0;   // items of this batch
        int counted = 0; // of which already counted in
        try {
            for (;;) {
                if (refsOnly && budget > 0 && o < limit) {
                    // The common stretch: untimed calls into slots claimed already. Per item only the call, the
                    // interrupt check and the store; the budget and the count once per stretch.
                    int stretch = (int) Math.min(Math.min(budget, limit - o), batchMax - taken);
                    int done = 0; // calls that returned an item (an Error escaping a call still counts these)
                    boolean ended = false;
                    Exception thrown = null;
                    try {
                        for (; done < stretch; done++) {
                            Object item;
                            try {
                                item = source.next();
                            } catch (Exception e) {
                                thrown = e; // a call that throws is no task, as on the per-item path
                                break;
                            }
                            control.clearTaskInterrupt();
                            if (item == null) {
                                ended = true;
                                break;
                            }
                            long epoch = source.epoch();
                            if (epoch == 0) {
                                dstRefs[ItemSlots.refIndex(++o, dstMask)] = item;
                            } else {
                                refsOnly = false; // an epoch from now on (a continuous source's epochs only grow)
                                dst.set(++o, item, epoch);
                            }
                        }
                    } finally {
                        int calls = ended ? done + 1 : done; // the call that ended the source was one too
                        taken += done;
                        budget -= calls;
                        untimed += calls;
                    }
                    if (thrown != null || ended) {
                        stats.onItemsIn(taken - counted); // counted in before they count out
                        counted = taken;
                        publishWritten(out, published, o);
                        published = o;
                        if (ended) {
                            return ENDED;
                        }
                        return failed(thrown) ? ENDED : STOPPED;
                    }
                    if (taken == batchMax
                            || budget == 0 && timer.lastTimedNanos() >= EngineConfiguration.PUBLISH_BATCH_BELOW_NANOS) {
                        break; // full, or the last timed call was slow: what was written goes out now
                    }
                    continue;
                }
                Object item;
                try {
                    if (budget > 0) {
                        item = source.next(); // a call that throws is no task, as on the per-item path
                        budget--;
                        untimed++;
                    } else {
                        timer.addUntimed(untimed);
                        untimed = 0;
                        long start = timer.start();
                        item = source.next();
                        timer.stop(start);
                        budget = timer.untimedBudget();
                    }
                } catch (Exception e) {
                    stats.onItemsIn(taken - counted); // counted in before they count out
                    counted = taken;
                    publishWritten(out, published, o);
                    published = o;
                    return failed(e) ? ENDED : STOPPED;
                }
                control.clearTaskInterrupt();
                if (item == null) {
                    stats.onItemsIn(taken - counted);
                    counted = taken;
                    publishWritten(out, published, o);
                    published = o;
                    return ENDED;
                }
                taken++;
                if (o == limit && o == (limit = out.refreshClaimLimit())) {
                    stats.onItemsIn(taken - counted); // counted in before they count out
                    counted = taken;
                    long seq = publishAndAwaitRoom(out, published, o); // full: publish, then wait for room
                    published = o;
                    if (seq < 0) {
                        discarder.discard(item);
                        return STOPPED;
                    }
                    limit = out.claimLimit();
                    o = seq - 1;
                }
                long epoch = source.epoch();
                if (refsOnly && epoch == 0) {
                    dstRefs[ItemSlots.refIndex(++o, dstMask)] = item;
                } else {
                    refsOnly = false; // an epoch from now on (a continuous source's epochs only grow)
                    dst.set(++o, item, epoch);
                }
                if (taken == batchMax
                        || budget == 0 && timer.lastTimedNanos() >= EngineConfiguration.PUBLISH_BATCH_BELOW_NANOS) {
                    break; // full, or a slow call: its item goes out now, after those before it
                }
            }
        } finally {
            out.claimedThrough(o); // a stop leaves written, unpublished items to close's sweep
            stats.onItemsIn(taken - counted);
            timer.addUntimed(untimed);
        }
        publishWritten(out, published, o);
        return RUN_DONE;
    }

    /** The source threw: count it and end with its failure (unless closing); what it emitted before still flows. */
    private boolean failed(Exception e) {
        if (!control.running().isRunning()) {
            return false; // interrupted by close
        }
        stats.onFailure();
        control.sourceFailed(stage, e); // what was emitted before the failure was published: it still flows
        return true;
    }
}
