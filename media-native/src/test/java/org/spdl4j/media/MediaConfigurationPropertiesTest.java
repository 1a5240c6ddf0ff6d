package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.bytedeco.ffmpeg.global.avutil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The media-native system properties (limits, reduced JPEG decoding, FFmpeg's log level), each read in a fresh JVM (they are read once, when
 * {@link MediaConfiguration} initialises). A value that does not parse or is out of range must fail naming the
 * property, not leave the default silently in effect.
 */
@Timeout(120)
class MediaConfigurationPropertiesTest {
    /** Prints the default limits a child JVM sees; a configuration failure exits non-zero. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            System.out.println("limits=" + MediaLimits.DEFAULT + " lowres=" + MediaConfiguration.LOWRES_ENABLED
                    + " reducedJpegDecode=" + MediaConfiguration.REDUCED_JPEG_DECODE);
            FFmpeg.init();
            System.out.println("ffmpegLogLevel=" + avutil.av_log_get_level());
        }
    }

    private static ChildJvm.Result probe(String property) throws IOException, InterruptedException {
        return ChildJvm.run(property, Probe.class);
    }

    /**
     * {@code Long.getLong} fell back to 256 MiB for "512m": the limit a user raised stayed where it was, and the
     * inputs it was raised for were still refused with "raise spdl4j.media.maxInputBytes".
     */
    @Test
    void shouldFailNamingALimitThatIsNotANumber() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.maxInputBytes=512m");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.media.maxInputBytes='512m' is not an integer");
    }

    /** A limit of 0 failed in MediaLimits ("limits must be positive: ..."), naming no property. */
    @Test
    void shouldFailNamingALimitThatIsNotPositive() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.maxFrames=0");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.media.maxFrames=0 must be in [1, ");
    }

    @Test
    void shouldTakeValidValues() throws Exception {
        ChildJvm.Result run = ChildJvm.run(List.of("-Dspdl4j.media.maxFrames=7", "-Dspdl4j.media.ffmpegLogLevel=16"),
                Probe.class);
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("maxFrames=7", "lowres=true", "ffmpegLogLevel=16");
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

    /**
     * The reduced-scale JPEG switch is read by the shared strict parser ({@code SystemProperties}), not a copy of it:
     * a value neither true nor false fails naming the property it came from, the current name or the earlier one.
     */
    @Test
    void shouldFailNamingAReducedJpegSwitchThatIsNeitherTrueNorFalse() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.reducedJpegDecode=yes");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("ExceptionInInitializerError",
                "system property spdl4j.media.reducedJpegDecode='yes' is neither true nor false (default true)");
        run = probe("-Dspdl4j.media.jpegDcDecode=0");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains(
                "system property spdl4j.media.jpegDcDecode='0' is neither true nor false (default true)");
    }

    /** The switch's earlier name is still accepted; where both are set the current name wins. */
    @Test
    void shouldReadTheReducedJpegSwitchUnderItsEarlierNameUnlessTheCurrentOneIsSet() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.jpegDcDecode=FALSE");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("reducedJpegDecode=false");
        run = ChildJvm.run(List.of("-Dspdl4j.media.reducedJpegDecode=true", "-Dspdl4j.media.jpegDcDecode=false"),
                Probe.class);
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("reducedJpegDecode=true");
    }
}
