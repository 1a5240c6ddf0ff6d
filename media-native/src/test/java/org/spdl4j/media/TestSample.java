package org.spdl4j.media;

import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.offheap.batch.EncodedSample;

/**
 * An {@link EncodedSample} as a loader passes one: bytes in native memory, or a local file and no bytes. Test code.
 *
 * @param address first encoded byte, 0 for none
 * @param length encoded bytes, 0 for none
 * @param key names the sample in errors
 * @param seed the sample's transform seed
 * @param path the local file, or null
 * @param bytes keeps the native memory reachable while the sample is used
 */
record TestSample(long address, int length, String key, long seed, Path path, UnsafeBuffer bytes)
        implements EncodedSample {

    /** {@return a sample whose bytes are copied into fresh native memory} */
    static TestSample inMemory(final String key, final byte[] encoded, final long seed) {
        final UnsafeBuffer b = TestImages.offHeap(encoded);
        return new TestSample(b.addressOffset(), encoded.length, key, seed, null, b);
    }

    /** {@return a sample that is a local file, its bytes not read} */
    static TestSample file(final String key, final Path path) {
        return new TestSample(0, 0, key, 0, path, null);
    }
}
