package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Random;

/** Test images generated at test time (ImageIO encoders) and small pixel helpers. */
final class TestImages {
    private TestImages() {
    }

    /** A smooth, photo-like RGB image: gradients, soft shapes, a little noise. */
    static BufferedImage photo(final int width, final int height, final long seed) {
        final BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
        final Graphics2D g = img.createGraphics();
        final Random r = new Random(seed);
        g.setPaint(new GradientPaint(0, 0, new Color(r.nextInt(256), r.nextInt(256), r.nextInt(256)),
                width, height, new Color(r.nextInt(256), r.nextInt(256), r.nextInt(256))));
        g.fillRect(0, 0, width, height);
        for (int i = 0; i < 12; i++) {
            g.setPaint(new GradientPaint(r.nextInt(width), r.nextInt(height),
                    new Color(r.nextInt(256), r.nextInt(256), r.nextInt(256), 160),
                    r.nextInt(width), r.nextInt(height), new Color(r.nextInt(256), r.nextInt(256), r.nextInt(256), 60)));
            g.fillOval(r.nextInt(width), r.nextInt(height), 1 + r.nextInt(width / 2 + 1), 1 + r.nextInt(height / 2 + 1));
        }
        g.dispose();
        return img;
    }

    /** Random pixels (worst case for lossless codecs, fine for exactness checks). */
    static BufferedImage noise(final int width, final int height, final int type, final long seed) {
        final BufferedImage img = new BufferedImage(width, height, type);
        final Random r = new Random(seed);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                img.setRGB(x, y, r.nextInt());
            }
        }
        return img;
    }

    static byte[] encode(final BufferedImage img, final String format) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(img, format, out)) {
                throw new IllegalStateException("no ImageIO writer for " + format);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] jpeg(final BufferedImage img, final float quality, final boolean progressive) {
        return jpeg(img, p -> {
            p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            p.setCompressionQuality(quality);
            if (progressive) {
                p.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
            }
        });
    }

    /** {@return the image as a JPEG written by ImageIO with its default parameters, then as {@code tune} sets them} */
    static byte[] jpeg(final BufferedImage img,
                       final java.util.function.Consumer<javax.imageio.plugins.jpeg.JPEGImageWriteParam> tune) {
        final ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(ios);
            final javax.imageio.plugins.jpeg.JPEGImageWriteParam p =
                    (javax.imageio.plugins.jpeg.JPEGImageWriteParam) writer.getDefaultWriteParam();
            tune.accept(p);
            writer.write(null, new IIOImage(img, null, null), p);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    static BufferedImage read(final byte[] bytes) {
        try {
            return ImageIO.read(new ByteArrayInputStream(bytes));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies bytes into fresh native memory (as an off-heap lease would hold them). */
    static UnsafeBuffer offHeap(final byte[] bytes) {
        final UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(1, bytes.length)));
        b.putBytes(0, bytes);
        return new UnsafeBuffer(b, 0, bytes.length);
    }

    static UnsafeBuffer nativeBuffer(final int capacity) {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
    }

    /** RGB bytes (HWC) of an image, via getRGB (colour-managed ImageIO decode). */
    static byte[] rgb(final BufferedImage img) {
        final int w = img.getWidth();
        final int h = img.getHeight();
        final byte[] out = new byte[w * h * 3];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                final int p = img.getRGB(x, y);
                final int i = (y * w + x) * 3;
                out[i] = (byte) (p >> 16);
                out[i + 1] = (byte) (p >> 8);
                out[i + 2] = (byte) p;
            }
        }
        return out;
    }

    /**
     * Reference resize of a sub-rectangle: separable triangle (tent) filter whose support widens with the downscale
     * factor (PIL/torchvision-antialias "bilinear"; plain 2-tap bilinear when upscaling), half-pixel centres, edges
     * clamped. Written independently of FFmpeg.
     */
    static byte[] bilinear(final byte[] src, final int srcW, final int srcH, final int channels, final int x0,
                           final int y0, final int cropW, final int cropH, final int dstW, final int dstH) {
        final double[] tmp = new double[cropH * dstW * channels];
        final double sx = (double) cropW / dstW;
        final double sy = (double) cropH / dstH;
        for (int x = 0; x < dstW; x++) {
            final double[][] w = weights(x, sx, cropW);
            for (int y = 0; y < cropH; y++) {
                for (int c = 0; c < channels; c++) {
                    double v = 0;
                    for (int k = 0; k < w[0].length; k++) {
                        v += w[1][k] * at(src, srcW, channels, x0 + (int) w[0][k], y0 + y, c);
                    }
                    tmp[(y * dstW + x) * channels + c] = v;
                }
            }
        }
        final byte[] out = new byte[dstW * dstH * channels];
        for (int y = 0; y < dstH; y++) {
            final double[][] w = weights(y, sy, cropH);
            for (int x = 0; x < dstW; x++) {
                for (int c = 0; c < channels; c++) {
                    double v = 0;
                    for (int k = 0; k < w[0].length; k++) {
                        v += w[1][k] * tmp[(((int) w[0][k]) * dstW + x) * channels + c];
                    }
                    out[(y * dstW + x) * channels + c] = (byte) Math.max(0, Math.min(255, Math.round(v)));
                }
            }
        }
        return out;
    }

    /** Taps and normalised weights for output index i: {indices, weights}. */
    private static double[][] weights(final int i, final double scale, final int n) {
        final double support = Math.max(1.0, scale);
        final double centre = (i + 0.5) * scale;
        final int lo = (int) Math.floor(centre - support);
        final int hi = (int) Math.ceil(centre + support);
        final double[] idx = new double[hi - lo + 1];
        final double[] wt = new double[hi - lo + 1];
        double sum = 0;
        for (int k = lo; k <= hi; k++) {
            final double d = Math.abs((k + 0.5 - centre) / support);
            final double w = Math.max(0, 1 - d);
            idx[k - lo] = Math.max(0, Math.min(n - 1, k));
            wt[k - lo] = w;
            sum += w;
        }
        for (int k = 0; k < wt.length; k++) {
            wt[k] /= sum;
        }
        return new double[][] {idx, wt};
    }

    private static int at(final byte[] src, final int w, final int channels, final int x, final int y, final int c) {
        return src[(y * w + x) * channels + c] & 0xFF;
    }

    /** Mean and max absolute difference of two byte arrays (unsigned). */
    static double[] diff(final byte[] a, final byte[] b) {
        long sum = 0;
        int max = 0;
        for (int i = 0; i < a.length; i++) {
            final int d = Math.abs((a[i] & 0xFF) - (b[i] & 0xFF));
            sum += d;
            max = Math.max(max, d);
        }
        return new double[] {(double) sum / a.length, max};
    }

    static byte[] bytes(final UnsafeBuffer buffer, final int length) {
        final byte[] out = new byte[length];
        buffer.getBytes(0, out);
        return out;
    }
}
