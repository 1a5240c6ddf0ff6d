package org.spdl4j.media;

import org.spdl4j.offheap.batch.SampleSeeds;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SampleSeeds;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The image decode step of a loader: the evaluation transform's pixels (a solid colour stays that colour; the short
 * side is resized before the centre crop, seen on an image split in two colours), the training transform against an
 * independent reference of the crop its seed chooses (ImageNet's ranges), determinism per seed, and, through
 * {@link SlotDecoderContract}, bad input named by its key and no native leftovers.
 */
@Timeout(60)
class ImageSlotDecoderTest extends SlotDecoderContract {
    private static final byte[] PHOTO = TestImages.jpeg(TestImages.photo(320, 240, 7), 0.9f, false);

    @Override
    SlotDecoder newDecoder() {
        return ImageSlotDecoder.evaluation(256, 224);
    }

    @Override
    byte[] goodInput() {
        return PHOTO;
    }

    @Override
    byte[][] badInputs() {
        final byte[] random = new byte[PHOTO.length];
        new java.util.Random(11).nextBytes(random);
        final byte[] magicThenRandom = random.clone();
        System.arraycopy(PHOTO, 0, magicThenRandom, 0, 12);
        final byte[] png = TestImages.encode(TestImages.photo(64, 48, 2), "png");
        return new byte[][] {Arrays.copyOf(PHOTO, 10), random, magicThenRandom, Arrays.copyOf(png, png.length / 2)};
    }

    private static byte[] decode(final SlotDecoder d, final byte[] file, final long seed) {
        final int bytes = slotBytes(d);
        final UnsafeBuffer slot = fencedSlot(bytes);
        final EncodedSample sample = TestSample.inMemory("img", file, seed);
        d.decode(sample, slot.addressOffset(), bytes);
        return TestImages.bytes(slot, bytes);
    }

    private static BufferedImage solid(final int w, final int h, final Color c) {
        final BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
        final Graphics2D g = img.createGraphics();
        g.setColor(c);
        g.fillRect(0, 0, w, h);
        g.dispose();
        return img;
    }

    @Test
    void shouldDescribeRgbCropsOfTheRequestedSize() {
        try (ImageSlotDecoder eval = ImageSlotDecoder.evaluation(256, 224);
             ImageSlotDecoder train = ImageSlotDecoder.training(160)) {
            assertThat(eval.dtype()).isEqualTo(DType.U8);
            assertThat(eval.sampleShape()).containsExactly(224, 224, 3);
            assertThat(eval.spec()).isEqualTo(ImageSpec.centerCrop(256, 224, PixelFormat.RGB24));
            assertThat(eval.readsFiles()).isFalse();
            assertThat(train.sampleShape()).containsExactly(160, 160, 3);
            assertThat(train.spec().randomCrop()).isEqualTo(RandomResizedCrop.imagenet());
        }
        assertThatThrownBy(() -> ImageSlotDecoder.evaluation(200, 224)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldDecodeASolidColourToThatColour() {
        final Color colour = new Color(200, 40, 90);
        final byte[] png = TestImages.encode(solid(320, 240, colour), "png");
        final byte[] jpeg = TestImages.jpeg(solid(480, 360, colour), 0.95f, false);
        try (SlotDecoder d = ImageSlotDecoder.evaluation(256, 224)) {
            final byte[] fromPng = decode(d, png, 0);
            final byte[] fromJpeg = decode(d, jpeg, 0);
            for (int i = 0; i < fromPng.length; i += 3) {
                assertThat(new int[] {fromPng[i] & 0xFF, fromPng[i + 1] & 0xFF, fromPng[i + 2] & 0xFF})
                        .as("png pixel %d", i / 3).containsExactly(200, 40, 90);
                assertThat(Math.abs((fromJpeg[i] & 0xFF) - 200)).as("jpeg red at %d", i / 3).isLessThanOrEqualTo(4);
                assertThat(Math.abs((fromJpeg[i + 1] & 0xFF) - 40)).as("jpeg green").isLessThanOrEqualTo(4);
                assertThat(Math.abs((fromJpeg[i + 2] & 0xFF) - 90)).as("jpeg blue").isLessThanOrEqualTo(4);
            }
        }
    }

    /**
     * 400x200, red left of x = 150, blue right of it. Short side 200 -> 256 scales by 1.28 (512x256); the centre 224
     * starts at x = 144, so the edge (150 x 1.28 = 192) lands at output column 48. Stretching the whole image instead
     * would put it at 84; cropping without resizing at 62.
     */
    @Test
    void shouldResizeTheShortSideThenCropTheCentre() {
        final BufferedImage img = solid(400, 200, Color.BLUE);
        final Graphics2D g = img.createGraphics();
        g.setColor(Color.RED);
        g.fillRect(0, 0, 150, 200);
        g.dispose();
        try (SlotDecoder d = ImageSlotDecoder.evaluation(256, 224)) {
            final byte[] out = decode(d, TestImages.encode(img, "png"), 0);
            for (final int y : new int[] {0, 112, 223}) {
                for (int x = 0; x < 224; x++) {
                    final int red = out[(y * 224 + x) * 3] & 0xFF;
                    final int blue = out[(y * 224 + x) * 3 + 2] & 0xFF;
                    if (x < 46) {
                        assertThat(red).as("red at (%d, %d)", x, y).isEqualTo(255);
                        assertThat(blue).as("blue at (%d, %d)", x, y).isZero();
                    } else if (x > 50) {
                        assertThat(red).as("red at (%d, %d)", x, y).isZero();
                        assertThat(blue).as("blue at (%d, %d)", x, y).isEqualTo(255);
                    }
                }
            }
        }
    }

    @Test
    void shouldDecodeAsTheEvaluationSpecDoesAndIgnoreTheSeed() {
        final ImageSpec spec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
        final UnsafeBuffer direct = TestImages.nativeBuffer(spec.bytes());
        try (SlotDecoder d = ImageSlotDecoder.evaluation(256, 224);
             SingleThreadImageDecoder plain = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            plain.decode(TestImages.offHeap(PHOTO), 0, PHOTO.length, "photo", spec, direct, 0);
            final byte[] seeded = decode(d, PHOTO, 12345);
            assertThat(seeded).isEqualTo(TestImages.bytes(direct, spec.bytes()));
            assertThat(decode(d, PHOTO, 0)).isEqualTo(seeded);
        }
    }

    /**
     * The training transform is the crop {@link RandomResizedCrop#imagenet()} chooses for the sample's seed, resized
     * and mirrored when the seed says so: checked against the test's own resize of ImageIO's pixels (lossless PNG).
     */
    @Test
    void shouldCropAndFlipAsTheSampleSeedChooses() {
        final BufferedImage img = TestImages.photo(640, 480, 52);
        final byte[] png = TestImages.encode(img, "png");
        final byte[] rgb = TestImages.rgb(img);
        final int size = 160;
        int flipped = 0;
        try (SlotDecoder d = ImageSlotDecoder.training(size)) {
            for (long sample = 0; sample < 8; sample++) {
                final long seed = SampleSeeds.of(9, 1, sample);
                final CropRect c = RandomResizedCrop.imagenet().choose(640, 480, seed);
                byte[] expected = TestImages.bilinear(rgb, 640, 480, 3, c.x(), c.y(), c.width(), c.height(), size,
                        size);
                if (c.flip()) {
                    expected = mirrored(expected, size);
                    flipped++;
                }
                final double[] diff = TestImages.diff(decode(d, png, seed), expected);
                assertThat(diff[0]).as("mean |diff|, crop %s", c).isLessThan(RandomCropDecodeTest.PNG_MEAN);
                assertThat(diff[1]).as("max |diff|, crop %s", c).isLessThanOrEqualTo(RandomCropDecodeTest.PNG_MAX);
            }
        }
        assertThat(flipped).as("seeds whose crop is mirrored").isBetween(1, 7);
    }

    private static byte[] mirrored(final byte[] rgb, final int size) {
        final byte[] out = new byte[rgb.length];
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                System.arraycopy(rgb, (y * size + x) * 3, out, (y * size + size - 1 - x) * 3, 3);
            }
        }
        return out;
    }

    @Test
    void shouldGiveTheSamePixelsForASeedAndOthersForAnotherSeed() {
        try (SlotDecoder d = ImageSlotDecoder.training(224)) {
            final byte[] first = decode(d, PHOTO, 41);
            assertThat(decode(d, PHOTO, 41)).isEqualTo(first);
            assertThat(TestImages.diff(decode(d, PHOTO, 42), first)[0]).as("mean |diff| of two seeds' outputs")
                    .isGreaterThan(2.0);
        }
    }

    @Test
    void shouldDecodeFromManyThreadsAtOnce() throws Exception {
        final byte[] expected;
        try (SlotDecoder d = ImageSlotDecoder.training(96)) {
            expected = decode(d, PHOTO, 5);
            final Thread[] threads = new Thread[4];
            final Throwable[] failures = new Throwable[threads.length];
            for (int t = 0; t < threads.length; t++) {
                final int index = t;
                threads[t] = Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 20; i++) {
                            assertThat(decode(d, PHOTO, 5)).isEqualTo(expected);
                        }
                    } catch (final Throwable e) {
                        failures[index] = e;
                    }
                });
            }
            for (final Thread t : threads) {
                t.join();
            }
            assertThat(failures).containsOnlyNulls();
        }
    }

    @Test
    void shouldRefuseDecodingOnceClosed() {
        final SlotDecoder d = ImageSlotDecoder.evaluation(256, 224);
        d.close();
        assertThatThrownBy(() -> decode(d, PHOTO, 0)).isInstanceOf(IllegalStateException.class);
        d.close(); // twice is harmless
    }
}
