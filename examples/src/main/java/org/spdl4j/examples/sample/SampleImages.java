package org.spdl4j.examples.sample;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;

/**
 * The built-in sample: photo-like JPEGs (gradients, shapes, noise) in class sub-folders, generated on first use so
 * the repository carries no binaries and the main job needs no download.
 *
 * <p>Deterministic: the same seed gives the same files. Not thread-safe; call from one thread.
 */
public final class SampleImages {
    /** Sizes of the generated images, ImageNet-like (the common 500x375 and a few others). */
    private static final int[][] SIZES = {{500, 375}, {375, 500}, {500, 333}, {640, 480}, {400, 400}};
    private static final String[] CLASSES = {"cat", "dog", "bird", "fish"};
    private static final String DONE_MARKER = ".complete";

    private SampleImages() {
    }

    /**
     * Makes sure {@code dir} holds {@code count} sample images (generating them if it does not), and returns it.
     *
     * @param dir   the sample folder; class sub-folders are created inside
     * @param count how many images
     * @return {@code dir}
     * @throws UncheckedIOException when the folder cannot be written
     */
    public static Path ensure(Path dir, int count) {
        Path marker = dir.resolve(DONE_MARKER);
        try {
            if (Files.exists(marker) && Files.readString(marker).trim().equals(Integer.toString(count))) {
                return dir;
            }
            generate(dir, count, 42L);
            Files.writeString(marker, Integer.toString(count));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the built-in sample to " + dir + ": " + e.getMessage()
                + " (pass --data DIR to use your own images, or make the folder writable)", e);
        }
    }

    /**
     * Writes {@code count} JPEGs into {@code dir}/{class}/{index}.jpg.
     *
     * @param dir   target folder
     * @param count how many images
     * @param seed  random seed
     * @throws IOException when a file cannot be written
     */
    public static void generate(Path dir, int count, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        for (String c : CLASSES) {
            Files.createDirectories(dir.resolve(c));
        }
        for (int i = 0; i < count; i++) {
            int[] size = SIZES[i % SIZES.length];
            BufferedImage image = draw(size[0], size[1], random);
            Path file = dir.resolve(CLASSES[i % CLASSES.length]).resolve(String.format(Locale.ROOT, "%06d.jpg", i));
            if (!ImageIO.write(image, "jpg", file.toFile())) {
                throw new IOException("no JPEG writer in this JDK");
            }
        }
    }

    /**
     * Draws one photo-like picture: a sky-like gradient, a few filled shapes and per-pixel noise, so that JPEG
     * encoding and decoding cost about what real photos cost.
     *
     * @param width  width in pixels
     * @param height height in pixels
     * @param random source of randomness
     * @return the picture, TYPE_3BYTE_BGR
     */
    public static BufferedImage draw(int width, int height, SplittableRandom random) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setPaint(new GradientPaint(0, 0, randomColor(random), width, height, randomColor(random)));
            g.fillRect(0, 0, width, height);
            for (int s = 0; s < 12; s++) {
                g.setColor(randomColor(random));
                int x = random.nextInt(width);
                int y = random.nextInt(height);
                int w = 10 + random.nextInt(width / 2);
                int h = 10 + random.nextInt(height / 2);
                if (random.nextBoolean()) {
                    g.fillOval(x - w / 2, y - h / 2, w, h);
                } else {
                    g.setStroke(new BasicStroke(1 + random.nextInt(8)));
                    g.drawLine(x, y, random.nextInt(width), random.nextInt(height));
                }
            }
        } finally {
            g.dispose();
        }
        byte[] pixels = ((java.awt.image.DataBufferByte) image.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < pixels.length; i++) {
            int v = (pixels[i] & 0xff) + random.nextInt(25) - 12;
            pixels[i] = (byte) Math.max(0, Math.min(255, v));
        }
        return image;
    }

    private static Color randomColor(SplittableRandom random) {
        return new Color(random.nextInt(256), random.nextInt(256), random.nextInt(256));
    }
}
