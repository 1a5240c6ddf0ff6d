package org.spdl4j.examples.image;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.examples.sample.SampleImages;

/** Test images on disk: good JPEGs from the built-in sample generator, and every kind of broken file. */
final class LoaderTestFiles {
    private LoaderTestFiles() {
    }

    /** {@return {@code count} good JPEGs, labelled 0..count-1 (the label identifies the file)} */
    static List<FileItem> good(Path dir, int count) throws IOException {
        SampleImages.generate(dir, count, 7);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> p.toString().endsWith(".jpg")).sorted().toList();
        }
        List<FileItem> items = new ArrayList<>();
        for (Path p : files) {
            items.add(new FileItem(p, p.getFileName().toString(), items.size()));
        }
        return items;
    }

    /** A bad file and the stage that must reject it. */
    record Bad(Path path, boolean rejectedByRead) {
    }

    /** Writes every kind of broken image next to the good ones (labels from {@code firstLabel} on). */
    static List<Bad> bad(Path dir, Path goodJpeg) throws IOException {
        byte[] jpeg = Files.readAllBytes(goodJpeg);
        byte[] png = png(64, 48);
        Random r = new Random(11);
        List<Bad> bad = new ArrayList<>();
        bad.add(write(dir, "truncated.jpg", java.util.Arrays.copyOf(jpeg, jpeg.length / 2), false));
        bad.add(write(dir, "header-only.jpg", java.util.Arrays.copyOf(jpeg, 10), false));
        bad.add(write(dir, "empty.jpg", new byte[0], true));
        byte[] random = new byte[4096];
        r.nextBytes(random);
        bad.add(write(dir, "random.jpg", random, false));
        byte[] flipped = jpeg.clone();
        flipped[1] ^= 0x10; // SOI FF D8 -> FF C8: no longer a JPEG, nothing else either
        bad.add(write(dir, "bitflip-soi.jpg", flipped, false));
        bad.add(write(dir, "bomb-65500.jpg", declare65500(jpeg.clone()), false));
        byte[] badCrc = png.clone();
        badCrc[badCrc.length / 2] ^= 0x10; // inside IDAT: its CRC no longer matches
        bad.add(write(dir, "bad-crc.png", badCrc, false));
        bad.add(write(dir, "text.jpg", "not an image at all\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                false));
        byte[] huge = new byte[33 << 20]; // larger than the loader's largest encoded-bytes buffer (32 MiB)
        System.arraycopy(jpeg, 0, huge, 0, jpeg.length);
        bad.add(write(dir, "too-large.jpg", huge, true));
        return bad;
    }

    /** {@return a valid PNG saved under a JPEG name: content decides, so it decodes} */
    static Path pngNamedJpeg(Path dir) throws IOException {
        Path p = dir.resolve("really-a-png.jpg");
        Files.write(p, png(80, 60));
        return p;
    }

    private static Bad write(Path dir, String name, byte[] bytes, boolean rejectedByRead) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return new Bad(p, rejectedByRead);
    }

    private static byte[] png(int w, int h) throws IOException {
        BufferedImage img = SampleImages.draw(w, h, new SplittableRandom(3));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        return out.toByteArray();
    }

    /** Rewrites the first SOF0/SOF2 header to declare 65500 x 65500 pixels. */
    private static byte[] declare65500(byte[] jpeg) {
        for (int i = 2; i + 8 < jpeg.length; i++) {
            if ((jpeg[i] & 0xFF) == 0xFF && ((jpeg[i + 1] & 0xFF) == 0xC0 || (jpeg[i + 1] & 0xFF) == 0xC2)) {
                jpeg[i + 5] = (byte) 0xFF;
                jpeg[i + 6] = (byte) 0xDC;
                jpeg[i + 7] = (byte) 0xFF;
                jpeg[i + 8] = (byte) 0xDC;
                return jpeg;
            }
        }
        throw new IllegalStateException("no SOF marker in the sample JPEG");
    }
}
