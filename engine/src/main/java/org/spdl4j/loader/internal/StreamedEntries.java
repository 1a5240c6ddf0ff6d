package org.spdl4j.loader.internal;

import java.util.Iterator;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.loader.SampleEntry;

/**
 * A user's {@link Iterable} of samples, read in its own order once per epoch (iterated again each epoch): sample
 * {@code i} goes to rank {@code i % worldSize}. No shuffle (the iterable decides the order) and no known length; a
 * position is the count of this rank's samples before it in the epoch, so resuming walks the iterable from its start.
 *
 * <p><b>Threading:</b> the source thread iterates; the iterable must give the same order each time it is iterated
 * for exact resume. <b>Allocation:</b> whatever the iterable allocates.
 */
public final class StreamedEntries implements EntrySource {
    private final Iterable<SampleEntry> entries;
    private final ReadKind kind;
    private final String description;

    /**
     * Creates the source.
     *
     * @param entries     the samples, iterated once per epoch
     * @param kind        how they are read (all files or all URLs)
     * @param description what they are, for messages
     */
    public StreamedEntries(Iterable<SampleEntry> entries, ReadKind kind, String description) {
        this.entries = entries;
        this.kind = kind;
        this.description = description;
    }

    @Override
    public ReadKind readKind() {
        return kind;
    }

    @Override
    public long epochLength(RankInfo rank) {
        return UNKNOWN_LENGTH;
    }

    @Override
    public EntryCursor open(long epoch, long from, RankInfo rank, long seed, boolean shuffle, SampleAllocator bytes) {
        Iterator<SampleEntry> it = entries.iterator();
        EntryCursor cursor = new EntryCursor() {
            private long index = -1;

            private SampleEntry advance() {
                while (it.hasNext()) {
                    SampleEntry e = it.next();
                    index++;
                    if (e != null && index % rank.worldSize() == rank.rank()) {
                        return e;
                    }
                }
                return null;
            }

            @Override
            public boolean next(LoaderItem item) {
                SampleEntry e = advance();
                if (e == null) {
                    return false;
                }
                item.describe(e);
                return true;
            }

            @Override
            public boolean skip() {
                return advance() != null;
            }

            @Override
            public void close() {
                if (it instanceof AutoCloseable c) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        // closing only ends the user's cursor; nothing to recover
                    }
                }
            }
        };
        for (long p = 0; p < from && cursor.skip(); p++) {
            // pass over what was already settled
        }
        return cursor;
    }

    @Override
    public String describe() {
        return description;
    }
}
