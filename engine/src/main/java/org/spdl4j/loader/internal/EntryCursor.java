package org.spdl4j.loader.internal;

/**
 * One rank's samples of one epoch, in order, from a starting position: what a loader's source walks.
 *
 * <p><b>Threading:</b> the loader's source thread only. <b>Blocking:</b> file or network I/O (tar shards).
 */
public interface EntryCursor extends AutoCloseable {
    /**
     * Describes the next sample in {@code item} (key, label, path or URL, or the sample's bytes for a source that
     * reads them itself).
     *
     * @param item a cleared item
     * @return false at the end of the epoch (the item untouched)
     */
    boolean next(LoaderItem item);

    /** {@return false at the end of the epoch; else passes over the next sample, reading no more than it must} */
    boolean skip();

    @Override
    void close();
}
