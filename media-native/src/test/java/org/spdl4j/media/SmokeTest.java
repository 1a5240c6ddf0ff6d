package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;

import static org.assertj.core.api.Assertions.assertThat;

class SmokeTest {
    @Test
    void smoke() {
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            BufferedImage img = TestImages.noise(67, 41, BufferedImage.TYPE_INT_RGB, 1);
            byte[] png = TestImages.encode(img, "png");
            UnsafeBuffer dst = TestImages.nativeBuffer(67 * 41 * 3);
            d.decode(TestImages.offHeap(png), 0, png.length, "png", ImageSpec.exact(67, 41, PixelFormat.RGB24), dst, 0);
            System.out.println("png " + java.util.Arrays.toString(TestImages.diff(TestImages.rgb(img), TestImages.bytes(dst, 67 * 41 * 3))));
            BufferedImage photo = TestImages.photo(640, 480, 2);
            byte[] jpg = TestImages.jpeg(photo, 0.9f, false);
            UnsafeBuffer dst2 = TestImages.nativeBuffer(640 * 480 * 3);
            d.decode(TestImages.offHeap(jpg), 0, jpg.length, "jpg", ImageSpec.exact(640, 480, PixelFormat.RGB24).withLowres(false), dst2, 0);
            System.out.println("jpg " + java.util.Arrays.toString(TestImages.diff(TestImages.rgb(TestImages.read(jpg)), TestImages.bytes(dst2, 640 * 480 * 3))));
            assertThat(NativeResourceCounter.outstanding()).isGreaterThan(0);
        }
        System.out.println(NativeResourceCounter.describe());
        assertThat(NativeResourceCounter.outstanding()).isZero();
    }
}
