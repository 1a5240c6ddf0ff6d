package org.spdl4j.djl;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;

/** Test images: four classes by hue, random brightness and pixel noise, PNG in class folders. */
final class ColorSquares {
    static final List<String> CLASSES = List.of("blue", "green", "red", "yellow");
    private static final float[] HUES = {0.62f, 0.33f, 0.0f, 0.15f};

    private ColorSquares() {
    }

    static Path generate(Path root, int perClass, int size, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        for (int c = 0; c < CLASSES.size(); c++) {
            Path dir = Files.createDirectories(root.resolve(CLASSES.get(c)));
            for (int i = 0; i < perClass; i++) {
                BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_INT_RGB);
                float hue = HUES[c] + (float) (random.nextDouble() - 0.5) * 0.06f;
                int base = Color.HSBtoRGB(hue, 0.5f + 0.5f * (float) random.nextDouble(),
                    0.4f + 0.6f * (float) random.nextDouble());
                for (int y = 0; y < size; y++) {
                    for (int x = 0; x < size; x++) {
                        int rgb = 0;
                        for (int shift = 0; shift <= 16; shift += 8) {
                            int v = ((base >> shift) & 0xff) + random.nextInt(61) - 30;
                            rgb |= Math.max(0, Math.min(255, v)) << shift;
                        }
                        image.setRGB(x, y, rgb);
                    }
                }
                ImageIO.write(image, "png", dir.resolve(String.format(Locale.ROOT, "%04d.png", i)).toFile());
            }
        }
        return root;
    }
}
