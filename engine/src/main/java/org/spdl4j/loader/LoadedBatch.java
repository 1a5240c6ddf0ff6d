package org.spdl4j.loader;

import org.spdl4j.offheap.tensor.Tensor;

/**
 * One batch as a loader delivers it: its data (the host batch, or what the transfer made of it: a device batch) and,
 * per sample, what it is: its key ({@code path}, {@code shard@member}, URL), label, epoch and position in its epoch.
 * Samples that failed are not in it (they are counted on the stage that failed them).
 *
 * <p><b>Ownership:</b> belongs to the consumer, which must {@link #close()} it: that closes the data (its memory
 * goes back to its pool) and the labels tensor. A batch used after {@link #close()} throws
 * {@link IllegalStateException}. At most a few batches exist at once (the loader's batches in flight): a consumer
 * that keeps them stalls the loader. <b>Threading:</b> read from any thread the consumer hands it to safely; close
 * once.
 *
 * @param <T> the data type: {@link org.spdl4j.offheap.batch.Batch} without a transfer
 */
public interface LoadedBatch<T> extends AutoCloseable {
    /** {@return the batch's data: {@code [size(), ...sample]} in one buffer} */
    T data();

    /** {@return the number of samples} */
    int size();

    /**
     * {@return the key of sample {@code i}}
     *
     * @param i from 0 to {@code size() - 1}
     */
    String key(int i);

    /**
     * {@return the label of sample {@code i}, or {@link SampleEntry#NO_LABEL}}
     *
     * @param i from 0 to {@code size() - 1}
     */
    int label(int i);

    /**
     * {@return the epoch of sample {@code i} (a batch may span two epochs)}
     *
     * @param i from 0 to {@code size() - 1}
     */
    long epoch(int i);

    /**
     * {@return the position of sample {@code i} in its epoch, in this rank's order}
     *
     * @param i from 0 to {@code size() - 1}
     */
    long position(int i);

    /**
     * {@return the text member {@code field} of sample {@code i} (a tar shard's {@code txt} caption, its {@code json}
     * metadata), as {@link LoaderBuilder#textFields} asked the loader to deliver; {@code null} when the sample has
     * none}
     *
     * @param i     from 0 to {@code size() - 1}
     * @param field one of the loader's text fields
     * @throws IllegalArgumentException when the loader does not deliver that field
     */
    default String text(int i, String field) {
        throw new IllegalArgumentException("text field '" + field + "' is not delivered (LoaderBuilder.textFields)");
    }

    /** {@return the labels as one int32 tensor {@code [size()]} in off-heap memory, valid until {@link #close()}} */
    Tensor labels();

    /** Closes the data and the labels; must not be called twice. */
    @Override
    void close();
}
