package org.spdl4j.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.OffHeapConfiguration;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.Tensor;

/**
 * Makes DJL arrays of a loader's batch without copying it: the samples and the labels become {@link NDArray}s made
 * by {@link NDManager#create(java.nio.Buffer, Shape, DataType)} over direct {@link java.nio.ByteBuffer}s on the
 * batch's own off-heap memory. DJL's PyTorch engine wraps such a buffer on the CPU ({@code torch::from_blob} over its
 * address): nothing is copied. Other engines, and a manager on a GPU, copy (the arrays are then independent of the
 * batch, and the hold below merely lasts as long).
 *
 * <pre>{@code
 * NdBatchAdapter adapter = NdBatchAdapter.builder().build();
 * for (LoadedBatch<Batch> batch : loader) {
 *     try (NdBatch nd = adapter.adapt(batch, manager)) {
 *         batch.close();                    // the loader moves on; the arrays still hold the memory
 *         step(nd.data(), nd.labels());
 *     }                                     // now the memory goes back to the loader's pool
 * }
 * }</pre>
 *
 * <p><b>Lifetimes (reference counting):</b> {@link #adapt} adds an owner to the batch's data and label leases; the
 * {@link NdBatch} (its manager) drops them when it closes. The memory goes back to the loader's pool only when both
 * the {@link LoadedBatch} and the {@link NdBatch} are closed, in either order. A loader has a fixed number of batch
 * buffers ({@code LoaderBuilder.batchesInFlight}): batches kept open by their arrays stall it, as open loader batches
 * do. Closing the {@link NdBatch} closes its arrays (also ones detached from its manager), so an array used after
 * its batch memory was released fails in DJL instead of reading a later batch. Views DJL's engine makes without a
 * copy (reshape, transpose, slices) are not tracked: they must not outlive the {@link NdBatch}.
 *
 * <p><b>Threading:</b> immutable; {@link #adapt} may be called from any thread, with the thread rules of the
 * manager given.
 */
public final class NdBatchAdapter {
    private static final AtomicLong HOLDS = new AtomicLong();

    private final DataType labelType;
    private final boolean checked;

    private NdBatchAdapter(Builder b) {
        this.labelType = b.labelType;
        this.checked = b.checked;
    }

    /** {@return a builder with the defaults: int32 labels, checked as the off-heap pools are} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The batch's samples and labels as arrays in a new sub-manager of {@code parent}, over the batch's memory. The
     * caller still owns {@code batch} and closes it when it likes (at once, to let the loader move on).
     *
     * @param batch  a host batch from a loader without a transfer, not yet closed
     * @param parent the manager whose sub-manager takes the arrays (a trainer's, a model's)
     * @return the arrays, owned by the caller, who closes them
     * @throws IllegalStateException when the batch was closed already
     */
    public NdBatch adapt(LoadedBatch<Batch> batch, NDManager parent) {
        Objects.requireNonNull(parent, "parent");
        Tensor samples = batch.data().tensor();
        Tensor labels = batch.labels();
        Lease dataLease = samples.lease().retain();
        Lease labelLease;
        try {
            labelLease = labels.lease().retain();
        } catch (RuntimeException e) {
            dataLease.release();
            throw e;
        }
        NDManager manager = null;
        NDArray data = null;
        NDArray rawLabels = null;
        boolean attached = false;
        try {
            manager = parent.newSubManager();
            data = manager.create(samples.asByteBuffer(), new Shape(samples.shape()), DataTypes.of(samples.dtype()));
            rawLabels = manager.create(labels.asByteBuffer(), new Shape(labels.shape()), DataType.INT32);
            BatchMemoryHold hold = new BatchMemoryHold(manager, new Lease[] {dataLease, labelLease},
                new NDArray[] {data, rawLabels}, checked ? new Throwable("adapted here") : null);
            manager.attachInternal("spdl4j-batch-" + HOLDS.incrementAndGet(), hold);
            attached = true; // from here on, closing the manager releases the leases
            NDArray label = labelType == DataType.INT32 ? rawLabels : rawLabels.toType(labelType, false);
            return new NdBatch(manager, data, label, hold);
        } catch (RuntimeException | Error e) {
            if (attached) {
                manager.close();
            } else {
                if (data != null) {
                    data.close();
                }
                if (rawLabels != null) {
                    rawLabels.close();
                }
                if (manager != null) {
                    manager.close();
                }
                dataLease.release();
                labelLease.release();
            }
            throw e;
        }
    }

    /** {@return the type of the labels arrays: int32 (no copy) unless the builder set another} */
    public DataType labelType() {
        return labelType;
    }

    /** {@return whether an array that escaped its batch's manager is reported when the batch is released} */
    public boolean checked() {
        return checked;
    }

    /** Options of an {@link NdBatchAdapter}. Not thread-safe; fill it in on one thread. */
    public static final class Builder {
        private DataType labelType = DataType.INT32;
        private boolean checked = OffHeapConfiguration.CHECKED;

        private Builder() {
        }

        /**
         * Sets the labels' type (default int32, an array over the batch's label memory); another type is a small copy
         * (DJL's losses on PyTorch take int32 and int64 class indices alike).
         *
         * @param type a numeric type
         * @return this builder
         */
        public Builder labelType(DataType type) {
            this.labelType = Objects.requireNonNull(type, "labelType");
            return this;
        }

        /**
         * Reports arrays that escaped their batch (detached from its manager, still open when it is released) at
         * ERROR with the stack of the {@link #adapt} call that made them (default: on when the off-heap module runs
         * checked, {@value OffHeapConfiguration#CHECKED_PROP}, as under paranoid leak detection and in tests). Such an
         * array is closed either way, so its next use fails.
         *
         * @param on whether to capture and report
         * @return this builder
         */
        public Builder checked(boolean on) {
            this.checked = on;
            return this;
        }

        /** {@return the adapter} */
        public NdBatchAdapter build() {
            return new NdBatchAdapter(this);
        }
    }
}
