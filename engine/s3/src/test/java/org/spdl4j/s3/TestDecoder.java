package org.spdl4j.s3;

import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/** Copies a sample's first {@link #WIDTH} bytes into its slot, so a test can read back which sample a slot holds. */
final class TestDecoder implements SlotDecoder {
    static final int WIDTH = 48;

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
        UnsafeBuffer dst = new UnsafeBuffer(destination, length);
        dst.setMemory(0, length, (byte) 0);
        dst.putBytes(0, src, 0, Math.min(length, sample.length()));
    }

    /** {@return the text a slot holds, without the padding} */
    static String text(UnsafeBuffer slot) {
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
        // nothing held
    }
}
