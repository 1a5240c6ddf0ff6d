package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.bytedeco.ffmpeg.global.avutil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * media-native's system properties, FFmpeg's log level ({@value MediaConfiguration#FFMPEG_LOG_LEVEL_PROP}) and the
 * shared decode memory budget ({@value MediaConfiguration#DECODE_MEMORY_BYTES_PROP}), read in a fresh JVM (each is
 * read once, when {@link MediaConfiguration} initialises). A value that does not parse or is out of range must fail
 * naming the property, not leave the default silently in effect.
 */
@Timeout(120)
class MediaConfigurationPropertiesTest {
    /** Prints FFmpeg's log level and the shared budget's size in a child JVM; a configuration failure exits non-zero. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            FFmpeg.init();
            System.out.println("ffmpegLogLevel=" + avutil.av_log_get_level());
            System.out.println("decodeMemoryBytes=" + DecodeMemoryBudget.shared().capacity());
        }
    }

    private static ChildJvm.Result probe(String property) throws IOException, InterruptedException {
        return ChildJvm.run(property, Probe.class);
    }

    @Test
    void shouldSetFfmpegsLogLevel() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.ffmpegLogLevel=16");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("ffmpegLogLevel=16");
    }

    @Test
    void shouldKeepFfmpegQuietWhenNothingIsSet() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.unrelated=1");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("ffmpegLogLevel=" + avutil.AV_LOG_QUIET);
    }

    /**
     * {@code Integer.getInteger} kept FFmpeg quiet for "debug" (its level is a number, 48): the typo went unnoticed,
     * and the output asked for never came.
     */
    @Test
    void shouldFailNamingAnFfmpegLogLevelThatIsNotANumber() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.ffmpegLogLevel=debug");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.media.ffmpegLogLevel='debug' is not an integer");
    }

    @Test
    void shouldSizeTheSharedDecodeMemoryBudget() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.decodeMemoryBytes=123456789");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("decodeMemoryBytes=123456789");
        ChildJvm.Result unset = probe("-Dspdl4j.unrelated=1");
        assertThat(unset.output()).contains("decodeMemoryBytes=" + MediaConfiguration.DEFAULT_DECODE_MEMORY_BYTES);
        assertThat(MediaConfiguration.DEFAULT_DECODE_MEMORY_BYTES)
                .isBetween(MediaConfiguration.MIN_DEFAULT_DECODE_MEMORY_BYTES,
                        MediaConfiguration.MAX_DEFAULT_DECODE_MEMORY_BYTES);
    }

    @Test
    void shouldFailNamingADecodeMemoryBudgetThatIsNotANumber() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.decodeMemoryBytes=2g");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("spdl4j.media.decodeMemoryBytes='2g'");
    }

    @Test
    void shouldFailNamingAnFfmpegLogLevelOutOfRange() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.ffmpegLogLevel=57");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.media.ffmpegLogLevel=57 must be in [-8, 56]");
    }
}
