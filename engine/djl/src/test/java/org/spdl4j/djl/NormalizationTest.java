package org.spdl4j.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.SlotDecoder;

/** uint8 [H, W, C] to normalized float [C, H, W]: in place in the slot, and bit for bit what DJL computes. */
class NormalizationTest {
    private static final int SIZE = 32;
    private static final int BATCH = 8;

    @TempDir
    static Path dir;
    private static Path images;
    private static NDManager manager;

    @BeforeAll
    static void setUp() throws IOException {
        images = ColorSquares.generate(dir.resolve("images"), 6, 40, 11); // 40 x 40: resized and cropped to 32
        manager = Engine.getEngine("PyTorch").newBaseManager();
    }

    @AfterAll
    static void tearDown() {
        manager.close();
    }

    private static Loader<Batch> loader(SlotDecoder decoder) {
        return Loader.builder().name("djl-normalize").source(SampleSource.folder(images)).decoder(decoder)
            .batchSize(BATCH).shuffle(false).order(OutputOrder.INPUT).decodeConcurrency(2).readConcurrency(4)
            .build();
    }

    /** DJL's own conversion of a copy of the pixels: toType, div, sub, div, transpose. */
    private static NDArray djlConversion(NDManager m, byte[] pixels, long n, PixelNormalization norm) {
        NDArray u8 = m.create(ByteBuffer.wrap(pixels), new Shape(n, SIZE, SIZE, 3), DataType.UINT8); // heap: a copy
        NDArray mean = m.create(norm.mean()).reshape(1, 1, 1, 3);
        NDArray std = m.create(norm.std()).reshape(1, 1, 1, 3);
        return u8.toType(DataType.FLOAT32, false).div(255f).sub(mean).div(std).transpose(0, 3, 1, 2);
    }

    @Test
    void shouldEqualDjlsConversionOfACopyBitForBit() {
        PixelNormalization norm = PixelNormalization.imagenet();
        NdBatchAdapter adapter = NdBatchAdapter.builder().build();
        int batches = 0;
        try (Loader<Batch> plain = loader(ImageSlotDecoder.evaluation(SIZE, SIZE));
             Loader<Batch> normalized = loader(NormalizingSlotDecoder.builder(ImageSlotDecoder.evaluation(SIZE,
                 SIZE)).normalization(norm).build());
             NDManager m = manager.newSubManager()) {
            Iterator<LoadedBatch<Batch>> a = plain.iterator();
            Iterator<LoadedBatch<Batch>> b = normalized.iterator();
            while (a.hasNext()) {
                try (LoadedBatch<Batch> u8 = a.next(); LoadedBatch<Batch> f32 = b.next();
                     NdBatch pixels = adapter.adapt(u8, m); NdBatch floats = adapter.adapt(f32, m)) {
                    assertThat(f32.key(0)).isEqualTo(u8.key(0));
                    byte[] copy = new byte[Math.toIntExact(u8.data().tensor().byteSize())];
                    u8.data().lease().buffer().getBytes(0, copy);
                    assertThat(pixels.data().toByteArray()).as("uint8 arrays: the batch's bytes").isEqualTo(copy);

                    assertThat(floats.data().getShape()).isEqualTo(new Shape(u8.size(), 3, SIZE, SIZE));
                    assertThat(floats.data().getDataType()).isEqualTo(DataType.FLOAT32);
                    float[] expected = djlConversion(m, copy, u8.size(), norm).toFloatArray();
                    float[] actual = floats.data().toFloatArray();
                    assertThat(actual).hasSameSizeAs(expected);
                    for (int i = 0; i < expected.length; i++) {
                        if (Float.floatToRawIntBits(actual[i]) != Float.floatToRawIntBits(expected[i])) {
                            throw new AssertionError("element " + i + " of batch " + batches + ": " + actual[i]
                                + " vs DJL's " + expected[i]);
                        }
                    }
                    assertThat(floats.labels().toIntArray()).isEqualTo(pixels.labels().toIntArray());
                }
                batches++;
            }
            assertThat(b.hasNext()).isFalse();
        }
        assertThat(batches).isEqualTo(3);
    }

    @Test
    void shouldConvertInPlaceFromTheSlotsLastQuarterAsFromAnotherBuffer() {
        SplittableRandom random = new SplittableRandom(5);
        for (int channels = 1; channels <= 4; channels++) {
            float[] mean = new float[channels];
            float[] std = new float[channels];
            for (int c = 0; c < channels; c++) {
                mean[c] = (float) random.nextDouble();
                std[c] = 0.1f + (float) random.nextDouble();
            }
            PixelNormalization norm = PixelNormalization.of(mean, std);
            int pixels = 7 * 13;
            int bytes = pixels * channels;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment src = arena.allocate(bytes);
                MemorySegment separate = arena.allocate(4L * bytes);
                MemorySegment slot = arena.allocate(4L * bytes);
                for (int i = 0; i < bytes; i++) {
                    src.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt(256));
                }
                MemorySegment.copy(src, 0, slot, 3L * bytes, bytes);
                norm.hwcToChw(src.address(), separate.address(), pixels);
                norm.hwcToChw(slot.address() + 3L * bytes, slot.address(), pixels);
                assertThat(slot.toArray(ValueLayout.JAVA_FLOAT)).as(channels + " channels")
                    .isEqualTo(separate.toArray(ValueLayout.JAVA_FLOAT));
                for (int p = 0; p < pixels; p++) {
                    for (int c = 0; c < channels; c++) {
                        int x = src.get(ValueLayout.JAVA_BYTE, (long) p * channels + c) & 0xff;
                        assertThat(separate.getAtIndex(ValueLayout.JAVA_FLOAT, (long) c * pixels + p))
                            .isEqualTo(((x / 255f) - mean[c]) / std[c]);
                    }
                }
            }
        }
    }

    @Test
    void shouldRefuseADecoderOfAnotherShape() {
        assertThatThrownBy(() -> NormalizingSlotDecoder.builder(ImageSlotDecoder.evaluation(SIZE, SIZE))
            .normalization(PixelNormalization.of(new float[] {0.5f}, new float[] {0.5f})).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 channels");
        assertThatThrownBy(() -> PixelNormalization.of(new float[] {0, 0, 0}, new float[] {1, 0, 1}))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("std");
    }
}
