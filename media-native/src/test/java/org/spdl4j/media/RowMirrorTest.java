package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RowMirrorTest {
    @Test
    void shouldReverseThePixelsOfEveryRowKeepingEachPixelsBytesInOrder() {
        for (final int channels : new int[] {1, 3, 4}) {
            for (final int width : new int[] {1, 2, 3, 7, 15, 16, 17, 31, 224, 225}) {
                final int height = 3;
                final int bytes = width * height * channels;
                final UnsafeBuffer image = TestImages.nativeBuffer(bytes + 16);
                image.setMemory(bytes, 16, (byte) 0x5A);
                for (int i = 0; i < bytes; i++) {
                    image.putByte(i, (byte) (i * 31 + 7));
                }
                RowMirror.mirror(image.addressOffset(), width, height, channels);
                for (int y = 0; y < height; y++) {
                    for (int x = 0; x < width; x++) {
                        for (int c = 0; c < channels; c++) {
                            final int from = (y * width + (width - 1 - x)) * channels + c;
                            assertThat(image.getByte((y * width + x) * channels + c))
                                    .as("channels %d width %d at (%d, %d, %d)", channels, width, x, y, c)
                                    .isEqualTo((byte) (from * 31 + 7));
                        }
                    }
                }
                for (int i = bytes; i < bytes + 16; i++) {
                    assertThat(image.getByte(i)).as("byte past the image").isEqualTo((byte) 0x5A);
                }
            }
        }
    }
}
