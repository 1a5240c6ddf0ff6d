package org.spdl4j.engine.source;

import java.util.Iterator;

/**
 * An iterator holding resources (an open shard, a connection) that {@link #close()} frees early, when the consumer
 * stops before the end. Iterators that reach their end free their resources by themselves; closing twice is harmless.
 *
 * @param <T> the item type
 */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    /** Frees the iterator's resources; afterwards {@link #hasNext()} is false. Does not throw. */
    @Override
    void close();

    /**
     * Wraps a plain iterator that holds nothing.
     *
     * @param it  the iterator
     * @param <T> the item type
     * @return a closeable iterator whose close does nothing but end it
     */
    static <T> CloseableIterator<T> of(Iterator<T> it) {
        return new CloseableIterator<>() {
            private boolean closed;

            @Override
            public boolean hasNext() {
                return !closed && it.hasNext();
            }

            @Override
            public T next() {
                if (closed) {
                    throw new java.util.NoSuchElementException("iterator closed");
                }
                return it.next();
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }
}
