package org.spdl4j.media;

import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.metadata.IIOMetadataNode;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Random;

/**
 * Baseline JPEGs with a chosen luma sampling and restart interval (ImageIO's JPEG metadata tree), plus the byte-level
 * surgery the corrupt-input tests need. Test code.
 */
final class TestJpegs {
    private static final String FORMAT = "javax_imageio_jpeg_image_1.0";

    private TestJpegs() {
    }

    /**
     * Encodes a baseline JPEG.
     *
     * @param img RGB (3 components, chroma at 1x1) or gray (1 component)
     * @param lumaH horizontal sampling factor of Y (1, 2 or 4); ignored for gray
     * @param lumaV vertical sampling factor of Y (1 or 2); ignored for gray
     * @param restartInterval MCUs per restart interval, 0 for none
     */
    static byte[] jpeg(final BufferedImage img, final float quality, final int lumaH, final int lumaV,
                       final int restartInterval) {
        final ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            final ImageWriteParam p = writer.getDefaultWriteParam();
            p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            p.setCompressionQuality(quality);
            final IIOMetadata md = writer.getDefaultImageMetadata(ImageTypeSpecifier.createFromRenderedImage(img), p);
            final Element root = (Element) md.getAsTree(FORMAT);
            final Element sequence = (Element) root.getElementsByTagName("markerSequence").item(0);
            if (restartInterval > 0) {
                final IIOMetadataNode dri = new IIOMetadataNode("dri");
                dri.setAttribute("interval", Integer.toString(restartInterval));
                sequence.insertBefore(dri, sequence.getFirstChild());
            }
            final NodeList components = root.getElementsByTagName("componentSpec");
            if (components.getLength() == 3) {
                ((Element) components.item(0)).setAttribute("HsamplingFactor", Integer.toString(lumaH));
                ((Element) components.item(0)).setAttribute("VsamplingFactor", Integer.toString(lumaV));
            }
            md.setFromTree(FORMAT, root);
            writer.setOutput(ios);
            writer.write(null, new IIOImage(img, null, md), p);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    /** {@return a JPEG whose Huffman tables are optimized for its own data (not the standard ones)} */
    static byte[] optimizedHuffman(final BufferedImage img, final float quality) {
        return TestImages.jpeg(img, p -> {
            p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            p.setCompressionQuality(quality);
            p.setOptimizeHuffmanTables(true);
        });
    }

    /** {@return the JPEG without its segments of one marker (e.g. 0xC4, DHT) before the first scan} */
    static byte[] withoutSegments(final byte[] jpeg, final int marker) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, 2);
        int p = 2;
        while (p < jpeg.length) {
            final int m = jpeg[p + 1] & 0xFF;
            if (m == 0xDA) {
                out.write(jpeg, p, jpeg.length - p);
                break;
            }
            final int length = (jpeg[p + 2] & 0xFF) << 8 | jpeg[p + 3] & 0xFF;
            if (m != marker) {
                out.write(jpeg, p, 2 + length);
            }
            p += 2 + length;
        }
        return out.toByteArray();
    }

    /** {@return the JPEG with one more segment (marker, length, {@code body}) right after its SOI} */
    static byte[] withSegment(final byte[] jpeg, final int marker, final byte[] body) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, 2);
        out.write(0xFF);
        out.write(marker);
        out.write((2 + body.length) >> 8);
        out.write(2 + body.length);
        out.write(body, 0, body.length);
        out.write(jpeg, 2, jpeg.length - 2);
        return out.toByteArray();
    }

    /** The photo with uniform per-channel grain of +-amplitude: many small AC coefficients, as in camera photos. */
    static BufferedImage grainy(final BufferedImage photo, final int amplitude, final long seed) {
        final byte[] px = ((DataBufferByte) photo.getRaster().getDataBuffer()).getData();
        final Random r = new Random(seed);
        for (int i = 0; i < px.length; i++) {
            px[i] = (byte) Math.clamp((px[i] & 0xFF) + r.nextInt(2 * amplitude + 1) - amplitude, 0, 255);
        }
        return photo;
    }

    /** {@return a gray copy of an RGB image} */
    static BufferedImage gray(final BufferedImage rgb) {
        final BufferedImage g = new BufferedImage(rgb.getWidth(), rgb.getHeight(), BufferedImage.TYPE_BYTE_GRAY);
        g.getGraphics().drawImage(rgb, 0, 0, null);
        return g;
    }

    /**
     * Finds a marker.
     *
     * @param from search start
     * @return the index of the 0xFF of the first {@code 0xFF marker} pair at or after {@code from}, or -1
     */
    static int find(final byte[] jpeg, final int marker, final int from) {
        for (int i = from; i + 1 < jpeg.length; i++) {
            if ((jpeg[i] & 0xFF) == 0xFF && (jpeg[i + 1] & 0xFF) == marker) {
                return i;
            }
        }
        return -1;
    }

    /** {@return the index of the first entropy-coded byte of the first scan} */
    static int scanData(final byte[] jpeg) {
        final int sos = find(jpeg, 0xDA, 2);
        return sos + 2 + ((jpeg[sos + 2] & 0xFF) << 8 | jpeg[sos + 3] & 0xFF);
    }
}
