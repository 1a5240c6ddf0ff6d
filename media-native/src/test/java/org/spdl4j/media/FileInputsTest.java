package org.spdl4j.media;

import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * A media file is opened once: the I/O context its format is probed through is the one its demuxer reads. It used to
 * be opened twice, once to probe (and refuse ffconcat lists), then again by avformat_open_input.
 */
class FileInputsTest {
    @TempDir
    static Path dir;

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    void shouldOpenEachFileOnce() {
        final Path clip = dir.resolve("clip.mp4");
        FfmpegTestEncoder.video(clip, "mpeg4", 64, 48, 10, 25, 5);
        final long opensBefore = NativeResourceCounter.outstanding(Kind.IO_CONTEXT);
        final AVFormatContext format = FileInputs.open(clip, MediaLimits.DEFAULT.maxPixels());
        try {
            // The one file opened by FileInputs is still open: it is what the demuxer reads ...
            assertThat(NativeResourceCounter.outstanding(Kind.IO_CONTEXT)).isEqualTo(opensBefore + 1);
            // ... and FFmpeg did not open the file itself (it would have, without a caller's I/O context)
            assertThat(format.flags() & AVFormatContext.AVFMT_FLAG_CUSTOM_IO).isNotZero();
            assertThat(format.nb_streams()).isEqualTo(1);
        } finally {
            FileInputs.close(format);
        }
        assertThat(NativeResourceCounter.outstanding(Kind.IO_CONTEXT)).isEqualTo(opensBefore);
    }

    @Test
    void shouldCloseTheFileWhenItIsNotAMediaFile() throws Exception {
        final Path junk = Files.write(dir.resolve("junk.bin"), new byte[] {1, 2, 3});
        final long before = NativeResourceCounter.outstanding(Kind.IO_CONTEXT);
        assertThatThrownBy(() -> FileInputs.open(junk, 1 << 20))
                .isInstanceOf(MediaException.class).hasMessageStartingWith(junk + ": ");
        assertThat(NativeResourceCounter.outstanding(Kind.IO_CONTEXT)).isEqualTo(before);
    }
}
