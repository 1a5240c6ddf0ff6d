package org.spdl4j.examples.training;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;

/**
 * A learnable image dataset, generated: four classes by dominant colour ({@code red}, {@code green}, {@code blue},
 * {@code yellow}), each image a noisy background of its class's hue at a random brightness with a few shapes of
 * random colours on top. Pooled colour statistics separate the classes well but not perfectly (the distractor shapes
 * and brightness vary), so a model has something to learn and its accuracy says whether it did.
 *
 * <p>Written as JPEGs in class sub-folders ({@code root/<class>/<n>.jpg}), the layout the image loader reads.
 * Deterministic for a seed. Not thread-safe; allocation-happy (set-up, not the pipeline).
 */
public final class ColorClassImages {
    /** Class names, in label order (sorted, as a folder dataset labels them). */
    public static final List<String> CLASSES = List.of("blue", "green", "red", "yellow");
    private static final float[] HUES = {0.62f, 0.33f, 0.0f, 0.15f};

    private ColorClassImages() {
    }

    /**
     * Writes {@code perClass} images of each class into {@code root}.
     *
     * @param root     the dataset folder (created)
     * @param perClass images per class
     * @param size     image width and height in pixels
     * @param seed     random seed
     * @return {@code root}
     * @throws IOException when a file cannot be written
     */
    public static Path generate(Path root, int perClass, int size, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        for (int c = 0; c < CLASSES.size(); c++) {
            Path dir = Files.createDirectories(root.resolve(CLASSES.get(c)));
            for (int i = 0; i < perClass; i++) {
                BufferedImage image = draw(HUES[c], size, random);
                if (!ImageIO.write(image, "jpg", dir.resolve(String.format(Locale.ROOT, "%05d.jpg", i)).toFile())) {
                    throw new IOException("no JPEG writer in this JDK");
                }
            }
        }
        return root;
    }

    private static BufferedImage draw(float hue, int size, SplittableRandom random) {
        BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = image.createGraphics();
        try {
            float h = hue + (float) (random.nextDouble() - 0.5) * 0.06f;
            g.setColor(Color.getHSBColor(h, 0.5f + 0.5f * (float) random.nextDouble(),
                0.45f + 0.55f * (float) random.nextDouble()));
            g.fillRect(0, 0, size, size);
            for (int s = 0; s < 4; s++) { // distractors: up to about a third of the picture
                g.setColor(new Color(random.nextInt(256), random.nextInt(256), random.nextInt(256)));
                int w = size / 8 + random.nextInt(size / 3);
                g.fillOval(random.nextInt(size) - w / 2, random.nextInt(size) - w / 2, w, w);
            }
        } finally {
            g.dispose();
        }
        byte[] pixels = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < pixels.length; i++) { // texture noise
            pixels[i] = (byte) Math.max(0, Math.min(255, (pixels[i] & 0xff) + random.nextInt(41) - 20));
        }
        return image;
    }
}
