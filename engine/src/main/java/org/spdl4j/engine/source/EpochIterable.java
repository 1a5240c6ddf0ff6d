package org.spdl4j.engine.source;

import java.util.NoSuchElementException;

/**
 * The iterable a pipeline takes as its source: an {@link EpochSource} plus where it stands ({@link SourceState}).
 *
 * <p>Each {@link #iterator()} runs the rest of the current epoch and then moves the state to the start of the next,
 * so iterating twice gives epoch 0 then epoch 1 (each in its own order). {@link #continuous(long)} runs epochs back to
 * back in one iterator, crossing epoch boundaries. {@link #state()} says how far it got; {@link #resume} builds an
 * iterable that continues exactly from a saved state.
 *
 * <p><b>Threading:</b> single-threaded: one iterator at a time (a second {@link #iterator()} while one is open
 * throws), used by one thread (the engine's source thread). {@link #state()} is exact when read by that thread or
 * after it has finished; from another thread it may be stale. <b>Blocking:</b> as the underlying source (file or
 * network I/O in {@code hasNext}). <b>Allocation:</b> an iterator per epoch; nothing per item beyond the source's own.
 *
 * @param <T> the item type
 */
public final class EpochIterable<T> implements Iterable<T> {
    private final EpochSource<T> source;
    private long epoch;
    private long position;
    private boolean iterating;

    private EpochIterable(EpochSource<T> source, SourceState from) {
        this.source = source;
        this.epoch = from.epoch();
        this.position = from.position();
    }

    /**
     * Starts a source at epoch 0, position 0.
     *
     * @param source the source
     * @param <T>    the item type
     * @return the iterable
     */
    public static <T> EpochIterable<T> of(EpochSource<T> source) {
        return new EpochIterable<>(source, SourceState.start(source.seed()));
    }

    /**
     * Continues a source from a saved state: the next item is item {@code state.position()} of epoch
     * {@code state.epoch()}.
     *
     * @param source the source, built exactly as in the saved run (same data, rank, seed)
     * @param state  the saved state
     * @param <T>    the item type
     * @return the iterable
     * @throws IllegalArgumentException when the state's seed is not the source's (another run's checkpoint)
     */
    public static <T> EpochIterable<T> resume(EpochSource<T> source, SourceState state) {
        if (state.seed() != source.seed()) {
            throw new IllegalArgumentException("state " + state.encode() + " was saved with seed " + state.seed()
                    + " but the source has seed " + source.seed() + "; build the source with the saved seed");
        }
        long length = source.epochLength();
        if (length != EpochSource.UNKNOWN_LENGTH && state.position() > length) {
            throw new IllegalArgumentException("state " + state.encode() + " is past the end of an epoch of " + length
                    + " items; was the dataset or world size changed?");
        }
        if (length != EpochSource.UNKNOWN_LENGTH && state.position() == length && length > 0) {
            // Saved right after an epoch's last item (a checkpoint after the last batch): resume at the next epoch's
            // start, so the first iterator is not an empty remainder (which a repeating pipeline takes for the end).
            return new EpochIterable<>(source, new SourceState(state.seed(), state.epoch() + 1, 0));
        }
        return new EpochIterable<>(source, state);
    }

    /** {@return where the iteration stands: the next item is {@code position} of {@code epoch}} */
    public SourceState state() {
        return new SourceState(source.seed(), epoch, position);
    }

    /**
     * {@return the epoch of the next item, as {@link #state()} would report it, without allocating a state (for a
     * per-item lookup on the iterating thread)}
     */
    public long epoch() {
        return epoch;
    }

    /** {@return the underlying source} */
    public EpochSource<T> source() {
        return source;
    }

    /** {@return an iterator over the rest of the current epoch; at its end the state moves to the next epoch} */
    @Override
    public CloseableIterator<T> iterator() {
        return open(epoch + 1, true);
    }

    /**
     * Runs epochs back to back, from the current state up to (not including) {@code endEpoch}. An epoch that turns
     * out empty ends the iteration (rather than spinning through empty epochs).
     *
     * @param endEpoch the first epoch not to run; {@code Long.MAX_VALUE} for an endless source
     * @return the iterator; {@link #state()} follows it item by item
     */
    public CloseableIterator<T> continuous(long endEpoch) {
        return open(endEpoch, false);
    }

    private CloseableIterator<T> open(long endEpoch, boolean oneEpoch) {
        if (iterating) {
            throw new IllegalStateException("an iterator of this source is still open; close it first");
        }
        iterating = true;
        return new Cursor(endEpoch, oneEpoch);
    }

    private final class Cursor implements CloseableIterator<T> {
        private long endEpoch;
        /** An {@link #iterator()}: one epoch's worth, the next one when the current one was already used up. */
        private final boolean oneEpoch;
        private CloseableIterator<T> current;
        private boolean done;
        /** Whether this cursor has handed out an item (a remainder opened past its end yields none). */
        private boolean yielded;

        Cursor(long endEpoch, boolean oneEpoch) {
            this.endEpoch = endEpoch;
            this.oneEpoch = oneEpoch;
        }

        @Override
        public boolean hasNext() {
            while (!done) {
                if (current == null) {
                    if (epoch >= endEpoch) {
                        close();
                        return false;
                    }
                    current = source.open(epoch, position);
                }
                if (current.hasNext()) {
                    return true;
                }
                current.close();
                current = null;
                boolean empty = position == 0;
                boolean resumedAtEnd = !yielded && position > 0; // a remainder that was already used up
                epoch++;
                position = 0;
                if (resumedAtEnd && oneEpoch) {
                    endEpoch++; // (a source of unknown length saved at its epoch's end) this iterator runs the next
                }
                if (empty) {
                    close();
                }
            }
            return false;
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException("source ended at " + state().encode());
            }
            T item = current.next();
            position++; // counted after the item is had: a throwing next() leaves the position on the failed item
            yielded = true;
            return item;
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
                current = null;
            }
            if (!done) {
                done = true;
                iterating = false;
            }
        }
    }
}
