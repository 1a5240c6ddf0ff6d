package org.spdl4j.loader.internal;

import java.net.URI;
import java.nio.file.Path;
import org.agrona.BufferUtil;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleField;
import org.spdl4j.loader.SampleEntry;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.batch.EncodedSample;

/**
 * The carrier of one sample through a loader's stages: the source sets what it is (key, label, where its bytes are,
 * its epoch and position, its transform seed), the read stage fills its bytes (a pooled lease for a file, a
 * {@link Sample} for a fetched URL or a tar member), assign parks it at its batch slot, decode reads it as the
 * {@link EncodedSample} view; then {@link LoaderItemPool#release} gives back its bytes and the item.
 *
 * <p><b>Ownership:</b> exactly one stage holds an item at a time; the rings between stages (and the slot table, after
 * assign) publish its fields, so they are plain. Items are pooled: nothing is allocated per sample by the carrier.
 */
public final class LoaderItem implements EncodedSample {
    /** The sample's key (set by the source). */
    public String key;
    /** Its label, or -1 (set by the source). */
    public int label;
    /** The local file, or null. */
    public Path path;
    /** The URL, or null. */
    public URI uri;
    /** Its epoch, from 0. */
    public long epoch;
    /** Its position in this rank's order of its epoch, from 0: what the loader's progress records. */
    public long position;
    /** The seed of its random transform (per run, epoch, key and pass). */
    public long seed;
    /**
     * Which pass over its source this sample's draw is in, within the epoch: 0, but for a part of a mixture that
     * starts over ({@link MixedEntries}); a later pass gives the same sample another transform seed.
     */
    public long pass;
    /**
     * Not a sample: the source's mark that epoch {@link #epoch} has ended (epoch-aligned batches), which the read
     * stages pass on and the assign stage turns into the seal of the epoch's last batch.
     */
    public boolean epochEnd;
    /** The text members the loader delivers ({@code textFields}), one per field, null when absent; or null. */
    public String[] texts;
    /** When its decode should be done ({@link System#nanoTime()}), or Long.MAX_VALUE: set by the decode stage. */
    public long deadlineNanos = Long.MAX_VALUE;
    /** Its ticket in the read stage's large-buffer turns (INPUT order), else 0. */
    public long ticket;
    /** The file's bytes in pooled memory once read, owned by this item until released. */
    public Lease lease;
    /** Valid bytes in {@link #lease}. */
    public int leaseLength;
    /** A fetched object or tar sample holding the bytes (owned: closed on release), or null. */
    public Sample sample;
    /** The field of {@link #sample} to decode. */
    public SampleField field;

    /** An empty item (the pool's). */
    public LoaderItem() {
        label = -1;
    }

    @Override
    public long address() {
        if (lease != null) {
            return lease.address();
        }
        return field != null && field.length() > 0 ? BufferUtil.address(field.bytes()) : 0L;
    }

    @Override
    public int length() {
        if (lease != null) {
            return leaseLength;
        }
        return field != null ? field.length() : 0;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public Path path() {
        return path;
    }

    /**
     * Names the sample this item carries: its key, label and where its bytes are.
     *
     * @param entry the sample
     */
    public void describe(SampleEntry entry) {
        key = entry.key();
        label = entry.label();
        path = entry.path();
        uri = entry.uri();
    }

    /** Gives back the bytes this item holds (lease or sample), once; the item keeps what names it. */
    public void releaseBytes() {
        Lease l = lease;
        Sample s = sample;
        lease = null;
        leaseLength = 0;
        sample = null;
        field = null;
        try {
            if (l != null) {
                l.release();
            }
        } finally {
            if (s != null) {
                s.close();
            }
        }
    }

    void clear() {
        pass = 0;
        epochEnd = false;
        if (texts != null) {
            java.util.Arrays.fill(texts, null);
        }
        key = null;
        label = -1;
        path = null;
        uri = null;
        epoch = 0;
        position = 0;
        seed = 0;
        deadlineNanos = Long.MAX_VALUE;
        ticket = 0;
    }

    /** {@return the key, naming the item in a failed sample's log line} */
    @Override
    public String toString() {
        return key == null ? "(no sample)" : key;
    }
}
