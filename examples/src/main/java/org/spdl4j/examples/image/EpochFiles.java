package org.spdl4j.examples.image;

import java.util.Iterator;
import java.util.Objects;
import org.spdl4j.engine.source.EpochIterable;
import org.spdl4j.engine.source.FileItem;

/**
 * The images a loader reads, in order, and the epoch each belongs to: what per-sample, per-epoch augmentation seeds
 * are made of ({@link ImageLoaderOptions#augment()}). A plain {@code Iterable<FileItem>} given to a loader counts as
 * {@link #of(Iterable) epoch 0} (fine for a loader built per epoch with {@link #of(Iterable, long)}).
 *
 * <p><b>Threading:</b> {@link #epoch()} is read by the loader's source thread right after each {@code next()}, the
 * thread that runs the iterator; an implementation needs no synchronisation.
 */
public interface EpochFiles extends Iterable<FileItem> {
    /** {@return the epoch of the item the current iterator returned last, from 0} */
    long epoch();

    /**
     * Files that all belong to one epoch (a loader built per epoch).
     *
     * @param files the images
     * @param epoch their epoch
     * @return the files with their epoch
     */
    static EpochFiles of(Iterable<FileItem> files, long epoch) {
        Objects.requireNonNull(files, "files");
        return new EpochFiles() {
            @Override
            public long epoch() {
                return epoch;
            }

            @Override
            public Iterator<FileItem> iterator() {
                return files.iterator();
            }
        };
    }

    /**
     * {@return {@code files} itself when it knows its epochs, else the files as epoch 0}
     *
     * @param files the images
     */
    static EpochFiles of(Iterable<FileItem> files) {
        return files instanceof EpochFiles known ? known : of(files, 0);
    }

    /**
     * Epochs back to back from a sampled source ({@link EpochIterable#continuous}), each item's epoch read from the
     * source's state.
     *
     * @param source   the source, at the epoch to start from
     * @param endEpoch the first epoch not to run
     * @return the files of those epochs; iterate once
     */
    static EpochFiles continuous(EpochIterable<FileItem> source, long endEpoch) {
        Objects.requireNonNull(source, "source");
        return new EpochFiles() {
            @Override
            public long epoch() {
                return source.epoch(); // exact on the iterating thread; allocates nothing
            }

            @Override
            public Iterator<FileItem> iterator() {
                return source.continuous(endEpoch);
            }
        };
    }
}
