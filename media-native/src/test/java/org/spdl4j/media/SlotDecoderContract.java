package org.spdl4j.media;

import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.spdl4j.offheap.batch.SlotDecoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every media {@link SlotDecoder} must do, whatever it decodes: report a shape the caller may keep, write
 * exactly its slot, name the key of a bad or empty input, and leave no FFmpeg object behind. Each decoder's test
 * extends this with its own media.
 */
abstract class SlotDecoderContract {
    /** Bytes of fence written after each slot; a decoder must not touch them. */
    private static final int FENCE = 256;
    private static final byte FILL = (byte) 0x5A;

    /** {@return a fresh decoder, closed by the test} */
    abstract SlotDecoder newDecoder();

    /** {@return a good input's encoded bytes} */
    abstract byte[] goodInput();

    /** {@return inputs the decoder must refuse (corrupt, truncated, of another kind)} */
    abstract byte[][] badInputs();

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    /** {@return the bytes of one sample's slot, as {@link SlotDecoder#sampleShape()} and the dtype give them} */
    static int slotBytes(final SlotDecoder d) {
        return (int) (Arrays.stream(d.sampleShape()).reduce(1, Math::multiplyExact) * d.dtype().byteSize());
    }

    /** {@return a slot of {@code bytes} followed by the fence, all filled with {@link #FILL}} */
    static UnsafeBuffer fencedSlot(final int bytes) {
        final UnsafeBuffer slot = TestImages.nativeBuffer(bytes + FENCE);
        slot.setMemory(0, bytes + FENCE, FILL);
        return slot;
    }

    @Test
    void shouldReturnAShapeTheCallerMayKeep() {
        try (SlotDecoder d = newDecoder()) {
            final long[] shape = d.sampleShape();
            final long[] copy = shape.clone();
            shape[0] = -1;
            assertThat(d.sampleShape()).containsExactly(copy);
            assertThat(Arrays.stream(copy).min().orElse(0)).as("smallest dimension").isPositive();
        }
    }

    @Test
    void shouldWriteItsWholeSlotAndNothingPastIt() {
        try (SlotDecoder d = newDecoder()) {
            final int bytes = slotBytes(d);
            final UnsafeBuffer slot = fencedSlot(bytes);
            d.decode(TestSample.inMemory("good", goodInput(), 3), slot.addressOffset(), bytes);
            for (int i = 0; i < FENCE; i++) {
                assertThat(slot.getByte(bytes + i)).as("fence byte %d", i).isEqualTo(FILL);
            }
            int untouched = 0;
            for (int i = 0; i < bytes; i++) {
                untouched += slot.getByte(i) == FILL ? 1 : 0;
            }
            assertThat(untouched).as("slot bytes still at the fill value").isLessThan(bytes / 4);
        }
    }

    @Test
    void shouldRefuseBadInputNamingTheKey() {
        final byte[][] bad = badInputs();
        try (SlotDecoder d = newDecoder()) {
            final int bytes = slotBytes(d);
            final UnsafeBuffer slot = fencedSlot(bytes);
            for (int i = 0; i < bad.length; i++) {
                final String key = "shard-0007.tar@bad-" + i;
                final TestSample sample = TestSample.inMemory(key, bad[i], 1);
                assertThatThrownBy(() -> d.decode(sample, slot.addressOffset(), bytes)).as(key)
                        .isInstanceOfSatisfying(MediaException.class, e -> assertThat(e.input()).isEqualTo(key))
                        .hasMessageStartingWith(key + ": ");
            }
            // and a bad input costs nothing for the next good one
            d.decode(TestSample.inMemory("good", goodInput(), 3), slot.addressOffset(), bytes);
        }
    }

    @Test
    void shouldRefuseAnEmptySampleNamingTheKey() {
        try (SlotDecoder d = newDecoder()) {
            final int bytes = slotBytes(d);
            final UnsafeBuffer slot = fencedSlot(bytes);
            final TestSample empty = new TestSample(0, 0, "nothing@0", 0, null, null);
            assertThatThrownBy(() -> d.decode(empty, slot.addressOffset(), bytes))
                    .isInstanceOfSatisfying(MediaException.class, e -> assertThat(e.input()).isEqualTo("nothing@0"));
        }
    }

    @Test
    void shouldRefuseASlotTooSmall() {
        try (SlotDecoder d = newDecoder()) {
            final int bytes = slotBytes(d);
            final UnsafeBuffer slot = fencedSlot(bytes);
            assertThatThrownBy(() -> d.decode(TestSample.inMemory("small", goodInput(), 0), slot.addressOffset(),
                    bytes - 1)).isInstanceOf(MediaException.class).hasMessageContaining("small");
            for (int i = 0; i < bytes + FENCE; i++) {
                assertThat(slot.getByte(i)).as("byte %d", i).isEqualTo(FILL);
            }
        }
    }
}
