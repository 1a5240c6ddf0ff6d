package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A bilevel image (1-bit PNG, decoded as FFmpeg's bit-packed MONOBLACK) is cropped on whole bytes of its packed
 * rows: the crop's left edge is rounded down to a multiple of 8 columns (as it is rounded down to the chroma grid of
 * subsampled formats), not moved right by the rest of a byte, and no padding bits past the row are read.
 */
class BitPackedCropTest {
    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    void shouldCropABilevelImageWhereItsEightBitCopyIsCropped() {
        // 300 x 200, stripes 5 px wide: center crop 224 of short side 256 starts at column 63 of the source, which
        // is not on a byte of the packed row: the bilevel crop starts at column 56. The 8-bit copy is the same
        // stripes moved right by 7 columns, so its crop (at 63, gray needs no rounding) holds the same pixels.
        BufferedImage bilevel = new BufferedImage(300, 200, BufferedImage.TYPE_BYTE_BINARY);
        BufferedImage gray = new BufferedImage(300, 200, BufferedImage.TYPE_BYTE_GRAY);
        for (int y = 0; y < 200; y++) {
            for (int x = 0; x < 300; x++) {
                bilevel.setRGB(x, y, (x / 5) % 2 == 0 ? 0xFFFFFF : 0);
                gray.setRGB(x, y, x >= 7 && ((x - 7) / 5) % 2 == 0 ? 0xFFFFFF : 0);
            }
        }
        ImageSpec spec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
        byte[] fromBits = decode(TestImages.encode(bilevel, "png"), spec);
        byte[] fromGray = decode(TestImages.encode(gray, "png"), spec);
        long diff = 0;
        for (int i = 0; i < fromBits.length; i++) {
            diff += Math.abs((fromBits[i] & 0xFF) - (fromGray[i] & 0xFF));
        }
        assertThat((double) diff / fromBits.length).as("mean absolute difference per byte").isLessThan(2.0);
    }

    private static byte[] decode(byte[] png, ImageSpec spec) {
        UnsafeBuffer src = TestImages.offHeap(png);
        UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            decoder.decode(src, 0, png.length, "stripes.png", spec, dst, 0);
        }
        byte[] out = new byte[spec.bytes()];
        dst.getBytes(0, out);
        return out;
    }
}
