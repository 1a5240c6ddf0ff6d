package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * A decoder made in a JVM without {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} names that flag (its
 * warm-up writes through Agrona before any pool exists), instead of Agrona's bare {@code IllegalAccessError}.
 */
@Timeout(120)
class MissingJvmFlagsTest {
    /** Makes the default image decoder, as a training script's first line would. */
    public static final class MakeDecoder {
        private MakeDecoder() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            try (ImageSlotDecoder d = ImageSlotDecoder.evaluation(256, 224)) {
                System.out.println("made " + d);
            }
        }
    }

    @Test
    void shouldNameTheMissingFlagWhenADecoderIsMade() throws Exception {
        ChildJvm.Result run = ChildJvm.runWithout("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
            MakeDecoder.class);
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("IllegalStateException: spdl4j needs --add-exports"
            + " java.base/jdk.internal.misc=ALL-UNNAMED").doesNotContain("made ");
    }
}
