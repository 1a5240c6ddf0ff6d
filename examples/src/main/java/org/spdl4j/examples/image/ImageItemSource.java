package org.spdl4j.examples.image;

import java.util.Iterator;
import org.spdl4j.engine.Source;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.LargeBufferTurns;
import org.spdl4j.offheap.batch.SampleSeeds;

/**
 * The loader's source: each file becomes a pooled {@link ImageItem} on the source thread, stamped with its
 * augmentation seed, made of the run's seed, the file's epoch and its key ({@link SampleSeeds}). The seed is fixed
 * here, before any concurrency, so it depends on neither worker count, output order nor which thread decodes.
 *
 * <p><b>Threading:</b> the engine's source thread only. <b>Allocation:</b> none of its own (items come from the
 * pool; the files' iterator allocates what it allocates). <b>Blocking:</b> waits for a free item while every item is
 * in flight (back-pressure), until interrupted by close.
 */
final class ImageItemSource implements Source<ImageItem> {
    private final EpochFiles files;
    private final Iterator<FileItem> iterator;
    private final ImageItemPool items;
    private final boolean seeded;
    private final long runSeed;
    private final LargeBufferTurns turns;

    /**
     * Creates the source over one iterator of the files.
     *
     * @param files   the images and their epochs
     * @param items   the item pool
     * @param seeded  whether to compute seeds (augmentation on)
     * @param runSeed the run's augmentation seed
     * @param turns   hands each item its ticket, open at once (INPUT order), or {@code null}
     */
    ImageItemSource(EpochFiles files, ImageItemPool items, boolean seeded, long runSeed, LargeBufferTurns turns) {
        this.files = files;
        this.iterator = files.iterator();
        this.items = items;
        this.seeded = seeded;
        this.runSeed = runSeed;
        this.turns = turns;
    }

    @Override
    public ImageItem next() throws InterruptedException {
        FileItem file = null;
        while (file == null) { // null elements are skipped, as the engine's own iterable source does
            if (!iterator.hasNext()) {
                return null;
            }
            file = iterator.next();
        }
        long seed = seeded ? seedOf(file) : 0; // read the epoch now: it moves on with the next call
        ImageItem item = items.take();
        item.file = file;
        item.seed = seed;
        if (turns != null) {
            // Items leave the source in input order, and each counts from here: the read stage starts its tasks in
            // that order, so a younger large read never waits for an older item the stage has not started.
            item.ticket = turns.ticket();
            turns.open(item.ticket);
        }
        return item;
    }

    private long seedOf(FileItem file) {
        CharSequence key = file.key() != null ? file.key() : file.path().toString();
        return SampleSeeds.of(runSeed, files.epoch(), SampleSeeds.keyId(key));
    }

    @Override
    public long epoch() {
        return files.epoch();
    }

    @Override
    public void close() {
        if (iterator instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // closing an iterator only ends its epoch cursor; nothing to recover
            }
        }
    }
}
