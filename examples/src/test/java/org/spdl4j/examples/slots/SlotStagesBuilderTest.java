package org.spdl4j.examples.slots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

/** {@link SlotStagesBuilder}: required parts are named when missing; defaults open a usable pool. */
class SlotStagesBuilderTest {
    private static final SlotWriter<Integer> WRITER = (item, address, length) -> UnsafeApi.putInt(address, item);

    @Test
    void shouldNameEveryMissingRequiredPart() {
        assertThatIllegalStateException().isThrownBy(() -> SlotStages.<Integer>builder("train").open())
            .withMessageContaining("'train'")
            .withMessageContaining("layout(BatchDescriptor)")
            .withMessageContaining("writer(SlotWriter)");
    }

    @Test
    void shouldNameOnlyTheMissingPart() {
        assertThatIllegalStateException()
            .isThrownBy(() -> SlotStages.<Integer>builder("val").layout(BatchDescriptor.of(8, DType.I32, 1)).open())
            .withMessageContaining("writer(SlotWriter)")
            .withMessageNotContaining("layout");
    }

    @Test
    void shouldRejectNoBatchesInFlight() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> SlotStages.<Integer>builder("train").batchesInFlight(0))
            .withMessageContaining("'train'").withMessageContaining("batchesInFlight must be >= 1, got 0");
    }

    @Test
    void shouldOpenWithOnlyTheRequiredParts() {
        try (SlotStages<Integer> slots = SlotStages.<Integer>builder("defaults")
                .layout(BatchDescriptor.of(8, DType.I32, 1)).writer(WRITER).open()) {
            assertThat(slots.fillFailures()).isZero();
        }
    }
}
