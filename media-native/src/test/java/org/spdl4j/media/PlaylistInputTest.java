package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Bytes that look like a playlist (an ffconcat list naming another file) are one input, not a way to read other
 * files: the decoder opens its in-memory bytes with no protocol allowed, so a demuxer that would open the files the
 * list names fails, with a MediaException, instead of returning another file's pixels.
 */
class PlaylistInputTest {
    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    void shouldNotOpenAFileNamedInsideTheInput() throws Exception {
        // The concat demuxer's safe mode takes only relative names, resolved against the working directory (this
        // module's, under a test run): put the target there, in the build folder.
        Path dir = Files.createDirectories(Path.of("target", "playlist-" + ProcessHandle.current().pid()));
        Path target = dir.resolve("t.png");
        Files.write(target, TestImages.encode(TestImages.photo(40, 30, 5), "png"));
        try {
            byte[] list = ("ffconcat version 1.0\nfile " + dir.toString().replace('\\', '/') + "/t.png\n")
                    .getBytes(StandardCharsets.US_ASCII);
            UnsafeBuffer src = TestImages.offHeap(list);
            ImageSpec spec = ImageSpec.exact(32, 32, PixelFormat.RGB24);
            UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
            try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
                assertThatThrownBy(() -> decoder.decode(src, 0, list.length, "playlist.bin", spec, dst, 0))
                        .isInstanceOf(MediaException.class).hasMessageContaining("playlist.bin");
            }
        } finally {
            Files.deleteIfExists(target);
            Files.deleteIfExists(dir);
        }
    }
}
