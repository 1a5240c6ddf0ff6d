package org.spdl4j.examples.classify;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.SampleField;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.media.PixelFormat;

class SampleImageWriterTest {
    /**
     * A sample read with a heap allocator has no native address: before the fix the writer passed the heap buffer's
     * array offset (a small number) to FFmpeg as an address, which read unmapped memory and killed the JVM.
     */
    @Test
    void shouldRefuseImageBytesOnTheHeapNamingTheSample() {
        byte[] notAnImage = new byte[256];
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT);
                Sample sample = new Sample("k", 0, "shard-3.tar@1024",
                        List.of(new SampleField("jpg", ByteBuffer.wrap(notAnImage))), SampleAllocator.HEAP)) {
            SampleImageWriter writer = new SampleImageWriter(decoders, ImageSpec.exact(8, 8, PixelFormat.RGB24));
            ByteBuffer slot = ByteBuffer.allocateDirect(8 * 8 * 3);

            assertThatThrownBy(() -> writer.write(sample, org.agrona.BufferUtil.address(slot), slot.capacity()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shard-3.tar@1024")
                    .hasMessageContaining("heap");
        }
    }
}
