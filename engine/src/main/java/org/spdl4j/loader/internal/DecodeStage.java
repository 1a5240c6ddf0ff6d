package org.spdl4j.loader.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.StageFailureReport;
import org.spdl4j.loader.SampleException;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;
import org.spdl4j.offheap.batch.SlotDecoder;

/**
 * The decode stage (many workers): takes a slot's item from the {@link SlotTable}, has the {@link SlotDecoder} write
 * the sample into the slot, releases the item, and completes the slot. When this slot was its batch's last, returns
 * the batch's {@link BatchRecord}, else {@code null} (the engine passes nothing on).
 *
 * <p><b>Bad input:</b> a decoder that throws (an Error included) fails only its slot: counted in this stage's
 * {@code failed} column ({@link StageFailureReport}) and logged naming the sample, and the batch is published without
 * it, its record naming it as failed: the consumer's receipt settles it (it would fail again) with the batch, so a
 * resumed run gives it its slot again; a batch whose every sample failed is dropped (its samples settled then). The slot is settled
 * before the item is released, so a release that throws cannot leave a batch unpublished. A decode that ran past the
 * loader's decode timeout fails its slot the same way (measured here, not by the engine's task timeout, whose late
 * result would be discarded: the batch this slot completed with it). <b>Allocation:</b> none on
 * the success path beyond the decoder's own, and one record per batch.
 */
final class DecodeStage implements Function<Object, BatchRecord> {
    private static final Logger LOG = LoggerFactory.getLogger(DecodeStage.class);
    private final String stage;
    private final SlotTable table;
    private final SlotDecoder decoder;
    private final LoaderItemPool items;
    private final BufferPool labelPool;
    private final LoaderControl control;
    /** The longest a decode may take, or 0 for no limit. */
    private final long timeoutNanos;
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    /** Counts the records closed (consumer or sweep); see {@link LoaderRuntime#batchesHeld}. */
    private final AtomicLong recordsClosed;
    /** Says when a decode passes the timeout while it runs; {@code null} without a timeout. */
    private final DecodeWatch watch;

    DecodeStage(String stage, SlotTable table, SlotDecoder decoder, LoaderItemPool items, BufferPool labelPool,
                LoaderControl control, Duration timeout, AtomicLong recordsClosed) {
        this.recordsClosed = recordsClosed;
        this.stage = stage;
        this.table = table;
        this.decoder = decoder;
        this.items = items;
        this.labelPool = labelPool;
        this.control = control;
        this.timeoutNanos = timeout == null ? 0 : timeout.toNanos();
        this.watch = timeoutNanos > 0 ? new DecodeWatch(stage, timeoutNanos) : null;
    }

    /** Stops the watch of running decodes (the loader's close). */
    void closeWatch() {
        if (watch != null) {
            watch.close();
        }
    }

    @Override
    public BatchRecord apply(Object work) {
        if (work instanceof Batch flushed) { // the end-of-stream batch the assign stage sealed complete
            return record(flushed);
        }
        Slot slot = (Slot) work;
        LoaderItem item = table.take(slot);
        Throwable error = null;
        try {
            if (item.sample != null && item.field == null) {
                throw new IllegalArgumentException("sample " + item.key + " has no member to decode (only text members "
                    + TarShardEntries.TEXT_FIELDS + "); its members: " + item.sample.fields().stream()
                    .map(f -> f.name()).toList());
            }
            if (item.length() == 0 && item.path == null) {
                throw new SampleException(item.key, "empty (0 bytes); nothing to decode", null);
            }
            long start = timeoutNanos > 0 ? System.nanoTime() : 0;
            item.deadlineNanos = timeoutNanos > 0 ? start + timeoutNanos : Long.MAX_VALUE;
            DecodeWatch.Running running = watch != null ? watch.started(item.key, start) : null;
            try {
                decoder.decode(item, slot.address(), slot.length());
            } finally {
                if (running != null) {
                    DecodeWatch.ended(running);
                }
            }
            long took = timeoutNanos > 0 ? System.nanoTime() - start : 0;
            if (timeoutNanos > 0 && took > timeoutNanos) {
                throw new SampleException(item.key, "decoding took " + took / 1_000_000
                    + " ms, longer than the decode timeout of " + timeoutNanos / 1_000_000 + " ms; raise "
                    + "LoaderBuilder.decodeTimeout or drop this sample", null);
            }
        } catch (Throwable e) { // an Error too (a native library missing): the slot must be settled either way
            error = e;
        }
        Batch done;
        if (error == null) {
            done = slot.complete();
        } else {
            failed(item, error);
            done = slot.fail(error);
        }
        try {
            items.release(item);
        } catch (RuntimeException | Error e) { // the batch this slot completed must still go out
            LOG.error("{}: releasing sample {} failed; what it holds may leak", stage, item, e);
        }
        return done == null ? null : record(done);
    }

    private void failed(LoaderItem item, Throwable error) {
        if (control.isClosing()) {
            return; // not a failure of the sample: the loader is closing under it; it runs again on resume
        }
        firstFailure.compareAndSet(null, error); // settled with its batch: its record, or the assembler's onDropped
        if (!StageFailureReport.report(item, error)) {
            LOG.warn("{}: dropped sample {}: {}", stage, item, error.toString());
        }
    }

    /**
     * The delivered form of a completed batch (never empty: the assembler drops a batch every sample of which failed,
     * after the loader's onDropped settled them).
     */
    private BatchRecord record(Batch batch) {
        try {
            return new BatchRecord(batch, table, labelPool, recordsClosed);
        } catch (RuntimeException | Error e) {
            batch.close();
            throw e;
        }
    }

    /** {@return what the first failed decode threw, or {@code null}} */
    Throwable firstFailure() {
        return firstFailure.get();
    }
}
