package org.spdl4j.engine.runtime;

import java.util.Iterator;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.EpochListener;
import org.spdl4j.engine.Source;

/**
 * Adapts the JDK's ways of producing items to a {@link Source}. Each adapter is used by the pipeline's single source
 * thread. {@code null} elements of iterables, iterators and streams are skipped ({@code null} means end for a source).
 */
public final class SourceAdapters {
    private static final Logger LOG = LoggerFactory.getLogger(SourceAdapters.class);

    private SourceAdapters() {
    }

    /**
     * {@return a source over an iterator; its {@code hasNext}/{@code next} run on the source thread}
     *
     * @param items the iterator
     * @param <T>   the item type
     */
    public static <T> Source<T> of(Iterator<? extends T> items) {
        Objects.requireNonNull(items, "items");
        return new Source<>() {
            @Override
            public T next() {
                while (items.hasNext()) {
                    T item = items.next();
                    if (item != null) {
                        return item;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                closeIfCloseable(items);
            }
        };
    }

    /**
     * Closes an iterator that holds resources (an {@link AutoCloseable} one, such as a
     * {@link org.spdl4j.engine.source.CloseableIterator} over tar shards), so a pipeline closed before the end (the
     * consumer broke out, a stage failed) does not leave its file open or its look-ahead item unreleased. Never
     * throws ({@link Source#close()} must not, and an exhausted epoch's iterator failing to close loses no item): a
     * failure is logged with the iterator, and the source goes on.
     */
    private static void closeIfCloseable(Iterator<?> it) {
        if (it instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing the source's iterator {} failed; what it holds may leak", it, e);
            }
        }
    }

    /**
     * {@return a source over a stream; the stream is closed with the pipeline}
     *
     * @param items the stream, consumed once
     * @param <T>   the item type
     */
    public static <T> Source<T> of(Stream<? extends T> items) {
        Iterator<? extends T> it = items.iterator();
        Source<T> inner = of(it);
        return new Source<>() {
            @Override
            public T next() throws Exception {
                return inner.next();
            }

            @Override
            public void close() {
                items.close();
            }
        };
    }

    /**
     * {@return a source calling a supplier until it returns {@code null} or an item equal to {@code endMarker}}
     *
     * @param supplier  produces items on the source thread
     * @param endMarker the item that means end ({@code null}: only {@code null} ends)
     * @param <T>       the item type
     */
    public static <T> Source<T> until(Supplier<? extends T> supplier, T endMarker) {
        Objects.requireNonNull(supplier, "supplier");
        return () -> {
            T item = supplier.get();
            return item == null || (endMarker != null && endMarker.equals(item)) ? null : item;
        };
    }

    /**
     * {@return a continuous source repeating an iterable forever, counting epochs from 0} After the last item of each
     * epoch the listener is told; an epoch with no items ends the source (it would otherwise spin).
     *
     * @param items    the data of one epoch, iterated again for each epoch
     * @param listener told at each epoch's end, on the source thread; may be {@code null}
     * @param <T>      the item type
     */
    public static <T> Source<T> repeating(Iterable<? extends T> items, EpochListener listener) {
        return new RepeatingSource<>(items, listener);
    }

    private static final class RepeatingSource<T> implements Source<T> {
        private final Iterable<? extends T> items;
        private final EpochListener listener;
        private Iterator<? extends T> current;
        private long epoch;
        private long inEpoch;

        RepeatingSource(Iterable<? extends T> items, EpochListener listener) {
            this.items = Objects.requireNonNull(items, "items");
            this.listener = listener;
        }

        @Override
        public T next() {
            if (current == null) {
                current = items.iterator(); // one iterator per epoch
            }
            for (;;) {
                while (current.hasNext()) {
                    T item = current.next();
                    if (item != null) {
                        inEpoch++;
                        return item;
                    }
                }
                if (listener != null) {
                    listener.onEpochEnd(epoch, inEpoch);
                }
                if (inEpoch == 0) {
                    return null;
                }
                epoch++;
                inEpoch = 0;
                closeIfCloseable(current); // exhausted, but it may still hold what it opened
                current = items.iterator();
            }
        }

        @Override
        public long epoch() {
            return epoch;
        }

        @Override
        public void close() {
            if (current != null) {
                closeIfCloseable(current);
            }
        }
    }
}
