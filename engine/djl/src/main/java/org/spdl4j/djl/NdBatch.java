package org.spdl4j.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;

/**
 * A loader batch as DJL arrays: the samples {@code [N, ...sample]} and the labels {@code [N]}, in the batch's own
 * {@link NDManager} (a sub-manager of the one given to {@link NdBatchAdapter#adapt}). Made by
 * {@link NdBatchAdapter}.
 *
 * <p><b>Ownership:</b> the caller owns it and must {@link #close()} it (or close its {@link #manager()}, or a parent
 * of it): that closes the arrays, and the batch memory goes back to the loader's pool once the loader's batch is
 * closed too. Arrays that share the memory (the two here, and views of them that DJL's engine makes without a copy:
 * a reshape, a transpose, a slice) must not outlive it; copies (a {@code toType}, the output of an operator) may.
 * <b>Threading:</b> hand it on safely; close once (a second close does nothing).
 */
public final class NdBatch implements AutoCloseable {
    private final NDManager manager;
    private final NDArray data;
    private final NDArray labels;
    private final BatchMemoryHold hold;

    NdBatch(NDManager manager, NDArray data, NDArray labels, BatchMemoryHold hold) {
        this.manager = manager;
        this.data = data;
        this.labels = labels;
        this.hold = hold;
    }

    /** {@return the samples, {@code [size(), ...sample shape]} of the loader's element type} */
    public NDArray data() {
        return data;
    }

    /** {@return the labels, {@code [size()]}: int32 over the batch's label memory, or the adapter's label type} */
    public NDArray labels() {
        return labels;
    }

    /** {@return the number of samples} */
    public int size() {
        return Math.toIntExact(data.getShape().get(0));
    }

    /** {@return the batch's own manager: closing it releases the batch} */
    public NDManager manager() {
        return manager;
    }

    /** {@return whether the arrays have released the batch memory (this batch or its manager closed)} */
    public boolean isReleased() {
        return hold.isClosed();
    }

    /** {@return the samples as a one-array list, for a model's forward} */
    public NDList dataList() {
        return new NDList(data);
    }

    /** {@return the labels as a one-array list, for a loss} */
    public NDList labelList() {
        return new NDList(labels);
    }

    /** Closes the batch's manager: the arrays, then this hold on the batch memory. */
    @Override
    public void close() {
        manager.close();
    }
}
