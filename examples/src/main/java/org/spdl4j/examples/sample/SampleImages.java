package org.spdl4j.examples.sample;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
        try {
            if (isComplete(dir, count)) {
                return dir;
            }
            // Generated beside the folder and moved into place whole: runs started together (the ranks of one node)
            // never read each other's half-written files, and a crashed run leaves no folder that looks complete.
            Path parent = dir.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path tmp = Files.createTempDirectory(parent, dir.getFileName() + ".tmp-");
            try {
                generate(tmp, count, 42L);
                Files.writeString(tmp.resolve(DONE_MARKER), Integer.toString(count));
                moveIntoPlace(tmp, dir, count);
            } finally {
                deleteTree(tmp); // nothing left when the move took it
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the built-in sample to " + dir + ": " + e.getMessage()
                + " (pass --data DIR to use your own images, or make the folder writable)", e);
        }
    }

    /** Moves a finished sample into place, unless another run's complete one got there first. */
    private static void moveIntoPlace(Path tmp, Path dir, int count) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
                return;
            } catch (FileSystemException taken) { // the folder exists (rename(2) says ENOTEMPTY, as a plain one)
                if (!Files.exists(dir)) {
                    throw taken;
                }
                if (isComplete(dir, count)) {
                    return; // another run finished first: its images are the same (same seed)
                }
                if (attempt > 0) {
                    throw taken;
                }
                deleteTree(dir); // an incomplete folder (an older run cut short, or another size): replace it
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof java.nio.file.NoSuchFileException)) { // another run deleting it too
                throw e.getCause();
            }
        }
    }

    private static boolean isComplete(Path dir, int count) throws IOException {
        Path marker = dir.resolve(DONE_MARKER);
        return Files.exists(marker) && Files.readString(marker).trim().equals(Integer.toString(count));
    }

    /**
     * Like {@link #ensure}, but generates the images in a child JVM (this JVM's {@code java} and class path).
     * Drawing and encoding a thousand JPEGs grows the heap to a few hundred MiB, which a JVM keeps resident
     * afterwards; in a child that memory goes when it exits, so this process's memory figures (the peak RSS that
     * {@code spdl4j run} reports) stay its own. Generates in this JVM when no child can be started.
     *
     * @param dir   the sample folder; class sub-folders are created inside
     * @param count how many images
     * @return {@code dir}
     * @throws UncheckedIOException when the folder cannot be written (the message is the child's)
     * @throws IllegalStateException when interrupted while waiting for the child (which is then killed)
     */
    public static Path ensureInChildJvm(Path dir, int count) {
        try {
            if (isComplete(dir, count)) {
                return dir;
            }
        } catch (IOException e) {
            return ensure(dir, count); // says what is wrong with the folder
        }
        Process child;
        try {
            child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), SampleImages.class.getName(),
                dir.toAbsolutePath().toString(), Integer.toString(count)).redirectErrorStream(true).start();
        } catch (IOException | UnsupportedOperationException e) {
            return ensure(dir, count);
        }
        String output;
        int status;
        try {
            output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            status = child.waitFor();
        } catch (IOException e) {
            child.destroyForcibly();
            throw new UncheckedIOException("cannot generate the built-in sample in " + dir + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while generating the built-in sample in " + dir, e);
        }
        if (status != 0) { // the child's last line says why (main below); lines before it are the JVM's, if any
            String why = output.strip().lines().reduce((a, b) -> b)
                .orElse("cannot write the built-in sample to " + dir + ": the generator exited with status " + status);
            throw new UncheckedIOException(why, new IOException(why));
        }
        return dir;
    }

    /**
     * Generates the built-in sample ({@code SampleImages DIR COUNT}): the child of {@link #ensureInChildJvm}. When it
     * cannot, it prints why on one line and exits with status 1.
     *
     * @param args the folder and the number of images
     */
    public static void main(String[] args) {
        try {
            ensure(Path.of(args[0]), Integer.parseInt(args[1]));
        } catch (UncheckedIOException e) {
            System.err.println(e.getMessage());
            System.exit(1);
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
