package org.spdl4j.perf.media;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Random;

/**
 * Photo-like JPEGs generated at benchmark setup (nothing committed): smooth gradients and soft shapes plus mild
 * per-pixel grain, so entropy-coded size and decode cost resemble a camera photo at quality 90 (4:2:0).
 */
final class PhotoJpegs {
    /** ImageNet-like, ~500x375. */
    static final int[] SMALL = {500, 375};
    /** ~1.2 MP. */
    static final int[] MEDIUM = {1280, 960};
    /** 12 MP phone photo. */
    static final int[] LARGE = {4000, 3000};

    private PhotoJpegs() {
    }

    static int[] size(final String name) {
        return switch (name) {
            case "small" -> SMALL;
            case "medium" -> MEDIUM;
            case "12mp" -> LARGE;
            default -> throw new IllegalArgumentException(name);
        };
    }

    static byte[] jpeg(final int width, final int height, final long seed) {
        final BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
        final Graphics2D g = img.createGraphics();
        final Random r = new Random(seed);
        g.setPaint(new GradientPaint(0, 0, color(r, 255), width, height, color(r, 255)));
        g.fillRect(0, 0, width, height);
        for (int i = 0; i < 40; i++) {
            g.setPaint(new GradientPaint(r.nextInt(width), r.nextInt(height), color(r, 180),
                    r.nextInt(width), r.nextInt(height), color(r, 60)));
            g.fillOval(r.nextInt(width), r.nextInt(height), 1 + r.nextInt(width / 3), 1 + r.nextInt(height / 3));
        }
        g.dispose();
        final byte[] px = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < px.length; i++) {
            px[i] = (byte) Math.max(0, Math.min(255, (px[i] & 0xFF) + r.nextInt(13) - 6));
        }
        final ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(ios);
            final ImageWriteParam p = writer.getDefaultWriteParam();
            p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            p.setCompressionQuality(0.9f);
            writer.write(null, new IIOImage(img, null, null), p);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    private static Color color(final Random r, final int alpha) {
        return new Color(r.nextInt(256), r.nextInt(256), r.nextInt(256), alpha);
    }
}
