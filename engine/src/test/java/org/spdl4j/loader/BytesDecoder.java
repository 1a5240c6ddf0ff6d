package org.spdl4j.loader;

import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * A test decoder: copies the first {@link #WIDTH} encoded bytes into the slot (zero-padded), so a test can tell which
 * sample a slot holds; a sample whose bytes start with "BAD" fails to decode. Counts decodes and its close.
 */
public final class BytesDecoder implements SlotDecoder {
    /** Bytes per slot. */
    public static final int WIDTH = 48;
    volatile boolean closed;

    /** Creates the decoder. */
    public BytesDecoder() {
    }

    @Override
    public DType dtype() {
        return DType.U8;
    }

    @Override
    public long[] sampleShape() {
        return new long[] {WIDTH};
    }

    @Override
    public void decode(EncodedSample sample, long destination, int length) {
        UnsafeBuffer src = new UnsafeBuffer(sample.address(), sample.length());
        if (sample.length() >= 3 && src.getByte(0) == 'B' && src.getByte(1) == 'A' && src.getByte(2) == 'D') {
            throw new IllegalArgumentException(sample.key() + ": a bad sample (test)");
        }
        UnsafeBuffer dst = new UnsafeBuffer(destination, length);
        dst.setMemory(0, length, (byte) 0);
        dst.putBytes(0, src, 0, Math.min(length, sample.length()));
    }

    /** {@return what a slot of this decoder holds, as text without the padding} */
    public static String text(UnsafeBuffer slot) {
        byte[] b = new byte[WIDTH];
        slot.getBytes(0, b);
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        closed = true;
    }
}
