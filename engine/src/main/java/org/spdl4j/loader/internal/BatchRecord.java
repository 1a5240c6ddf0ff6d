package org.spdl4j.loader.internal;

import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.Tensor;

/**
 * A delivered batch's record: the data and what names each sample, copied out of the slot table when the batch
 * completed (the table's entries go to later batches once the host batch is closed, which a transfer does early).
 *
 * <p><b>Allocation:</b> one record and its arrays per batch (a few hundred bytes per batch, never per sample): a
 * record is never reused, so a reference kept past {@link #close()} fails loudly instead of reading a later batch.
 * <b>Threading:</b> filled by the decode worker that completed the batch; the rings publish it to the consumer.
 */
public final class BatchRecord implements LoadedBatch<Object> {
    final String[] keys;
    final int[] labels;
    final long[] epochs;
    final long[] positions;
    /** Epochs and positions of the samples that failed to decode in this batch: settled with it. */
    final long[] failedEpochs;
    final long[] failedPositions;
    private final int size;
    private Lease labelLease;
    /** The host batch until a transfer takes it; then null. */
    Batch host;
    private AutoCloseable data;
    private volatile boolean closed;
    /** The loader's count of closed records: with its count of delivered ones, the batches the consumer holds. */
    private final AtomicLong closes;
    private static final String[] NO_TEXTS = new String[0];
    /** The text fields delivered, and each sample's texts ({@code i * fields + field}). */
    private final java.util.List<String> textNames;
    final String[] texts;

    BatchRecord(Batch batch, SlotTable table, BufferPool labelPool, AtomicLong closes) {
        this.closes = closes;
        this.size = batch.size();
        this.keys = new String[size];
        this.labels = new int[size];
        this.epochs = new long[size];
        this.positions = new long[size];
        this.failedEpochs = new long[batch.failedCount()];
        this.failedPositions = new long[batch.failedCount()];
        this.textNames = table.textNames();
        this.texts = textNames.isEmpty() ? NO_TEXTS : new String[size * textNames.size()];
        table.describe(batch, this);
        this.labelLease = labelPool.acquire(Math.max(1, size * Integer.BYTES));
        UnsafeBuffer view = labelLease.buffer();
        for (int i = 0; i < size; i++) {
            view.putInt(i * Integer.BYTES, labels[i], java.nio.ByteOrder.nativeOrder());
        }
        this.host = batch;
        this.data = batch;
    }

    /** What the transfer made of the host batch (the transfer took the host batch). */
    void transferred(AutoCloseable result) {
        this.host = null;
        this.data = result;
    }

    @Override
    public Object data() {
        check();
        return data;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String key(int i) {
        check();
        return keys[i];
    }

    @Override
    public int label(int i) {
        check();
        return labels[i];
    }

    @Override
    public long epoch(int i) {
        check();
        return epochs[i];
    }

    @Override
    public long position(int i) {
        check();
        return positions[i];
    }

    /**
     * Marks the record's memory as handed to the consumer, for leak reports (see {@code Lease.handOver}; nothing
     * unless leak detection tracks the lease).
     *
     * @param to who takes it
     */
    public void handedTo(String to) {
        Lease l = labelLease;
        if (l != null) {
            l.handOver(to);
        }
        Batch b = host;
        if (b != null) {
            b.lease().handOver(to);
        }
    }

    @Override
    public String text(int i, String field) {
        check();
        java.util.Objects.checkIndex(i, size);
        int f = textNames.indexOf(field);
        if (f < 0) {
            throw new IllegalArgumentException("text field '" + field + "' is not delivered; this loader delivers "
                + textNames + " (LoaderBuilder.textFields)");
        }
        return texts[i * textNames.size() + f];
    }

    @Override
    public Tensor labels() {
        check();
        return Tensor.contiguous(labelLease, 0, DType.I32, size);
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("batch of " + size + " samples" + (size > 0 ? " from " + keys[0] : "")
                + " used after close(): its memory belongs to later batches");
        }
    }

    @Override
    public void close() {
        if (closed) {
            throw new IllegalStateException("batch of " + size + " samples closed twice");
        }
        closed = true;
        closes.incrementAndGet();
        Lease l = labelLease;
        labelLease = null;
        try {
            if (data != null) {
                data.close();
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("closing the batch's data failed: " + e, e);
        } finally {
            l.release();
        }
    }

    @Override
    public String toString() {
        return "batch of " + size + (size > 0 ? " from " + keys[0] : "");
    }
}
