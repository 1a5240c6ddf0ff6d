package org.spdl4j.loader.internal;

import org.spdl4j.offheap.batch.SampleSeeds;

/**
 * Folds names (sample keys, shard names) into a source's {@link EntrySource#fingerprint()}: order-dependent, never 0.
 *
 * <p><b>Threading:</b> one instance per computation. <b>Allocation:</b> none per name.
 */
final class SourceFingerprint {
    private long h = 0x5350444C34A7F00DL;
    private long count;

    /** Folds in one name. */
    SourceFingerprint add(CharSequence name) {
        h = SampleSeeds.mix64(h ^ SampleSeeds.keyId(name));
        count++;
        return this;
    }

    /** Folds in a number (a weight, a length). */
    SourceFingerprint add(long value) {
        h = SampleSeeds.mix64(h + 0x9E3779B97F4A7C15L * (value + 1));
        return this;
    }

    /** {@return the fingerprint of what was folded in, with its count; never 0} */
    long value() {
        long v = SampleSeeds.mix64(h ^ count);
        return v == 0 ? 1 : v;
    }
}
