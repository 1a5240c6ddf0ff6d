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
 * Photo-like JPEGs generated at benchmark setup (nothing committed), quality 90, 4:2:0 (ImageIO's encoder, standard
 * Huffman tables):
 * <ul>
 *   <li>{@code small}, {@code medium}, {@code 12mp}: smooth gradients and soft shapes plus +-6 per-pixel grain. At
 *       12 MP that is 1.66 MB, 1.1 bits per pixel: lighter than a camera's 12 MP JPEG (typically 2.5-5 MB).</li>
 *   <li>{@code 12mp-dense}: the same picture with texture at four scales (3 to 41 px, +-30 each) and +-3 grain, as
 *       foliage, fabric or gravel give a real photo: 3.4 MB, 2.3 bits per pixel, inside the camera range. Decoding cost
 *       grows with the entropy-coded bytes, and a reduced-scale decode saves none of that work, so this is the
 *       harder, more honest case for reduced decoding.</li>
 * </ul>
 */
final class PhotoJpegs {
    /** ImageNet-like, ~500x375. */
    static final int[] SMALL = {500, 375};
    /** ~1.2 MP. */
    static final int[] MEDIUM = {1280, 960};
    /** 12 MP phone photo. */
    static final int[] LARGE = {4000, 3000};
    private static final int[] TEXTURE_CELLS = {3, 7, 17, 41};
    private static final int TEXTURE_AMPLITUDE = 30;
    private static final int DENSE_GRAIN = 3;
    private static final int GRAIN = 6;

    private PhotoJpegs() {
    }

    static int[] size(final String name) {
        return switch (name) {
            case "small" -> SMALL;
            case "medium" -> MEDIUM;
            case "12mp", "12mp-dense" -> LARGE;
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** {@return the named benchmark photo (see the class comment), encoded} */
    static byte[] named(final String name, final long seed) {
        final int[] size = size(name);
        return name.endsWith("-dense") ? encode(dense(size[0], size[1], seed)) : jpeg(size[0], size[1], seed);
    }

    static byte[] jpeg(final int width, final int height, final long seed) {
        return encode(picture(width, height, seed, GRAIN));
    }

    private static BufferedImage picture(final int width, final int height, final long seed, final int grain) {
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
            px[i] = (byte) Math.max(0, Math.min(255, (px[i] & 0xFF) + r.nextInt(2 * grain + 1) - grain));
        }
        return img;
    }

    /** The picture with grain {@value #DENSE_GRAIN} plus the sum of bilinear value-noise octaves, added to R, G, B. */
    private static BufferedImage dense(final int width, final int height, final long seed) {
        final BufferedImage img = picture(width, height, seed, DENSE_GRAIN);
        final byte[] px = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
        final Random r = new Random(seed + 1);
        final float[][] grids = new float[TEXTURE_CELLS.length][];
        for (int o = 0; o < TEXTURE_CELLS.length; o++) {
            grids[o] = new float[(width / TEXTURE_CELLS[o] + 2) * (height / TEXTURE_CELLS[o] + 2)];
            for (int i = 0; i < grids[o].length; i++) {
                grids[o][i] = r.nextFloat() * 2 - 1;
            }
        }
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                float t = 0;
                for (int o = 0; o < TEXTURE_CELLS.length; o++) {
                    final int cell = TEXTURE_CELLS[o];
                    final int gw = width / cell + 2;
                    final float fx = (float) x / cell;
                    final float fy = (float) y / cell;
                    final int ix = (int) fx;
                    final int iy = (int) fy;
                    final float ax = fx - ix;
                    final float ay = fy - iy;
                    final float[] g = grids[o];
                    t += (g[iy * gw + ix] * (1 - ax) + g[iy * gw + ix + 1] * ax) * (1 - ay)
                            + (g[(iy + 1) * gw + ix] * (1 - ax) + g[(iy + 1) * gw + ix + 1] * ax) * ay;
                }
                final int d = Math.round(t * TEXTURE_AMPLITUDE);
                for (int c = 0; c < 3; c++) {
                    final int i = (y * width + x) * 3 + c;
                    px[i] = (byte) Math.clamp((px[i] & 0xFF) + d, 0, 255);
                }
            }
        }
        return img;
    }

    private static byte[] encode(final BufferedImage img) {
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
