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

    /**
     * Encodes a four-component baseline JPEG as Photoshop writes CMYK: components 1 and 4 sampled 2x2, 2 and 3 at 1x1
     * (FFmpeg's pixel format id 0x22111122), with an Adobe APP14 segment whose transform is {@code transform} (2:
     * YCCK, 0: plain CMYK). The raster's four bands are written as they are (ImageIO does no colour conversion for a
     * Raster).
     */
    static byte[] fourComponent(final int width, final int height, final int transform, final long seed) {
        final java.awt.image.WritableRaster raster = java.awt.image.Raster.createInterleavedRaster(
                java.awt.image.DataBuffer.TYPE_BYTE, width, height, 4, null);
        final Random random = new Random(seed);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                for (int b = 0; b < 4; b++) {
                    raster.setSample(x, y, b, (x * (b + 1) + y * (4 - b)) / 4 + random.nextInt(8) & 0xFF);
                }
            }
        }
        final ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            final ImageWriteParam p = writer.getDefaultWriteParam();
            final IIOMetadata md = writer.getDefaultImageMetadata(
                    ImageTypeSpecifier.createFromBufferedImageType(BufferedImage.TYPE_3BYTE_BGR), p);
            final Element root = (Element) md.getAsTree(FORMAT);
            final Element variety = (Element) root.getElementsByTagName("JPEGvariety").item(0);
            while (variety.getFirstChild() != null) {
                variety.removeChild(variety.getFirstChild()); // no JFIF: Adobe's marker says what the bands are
            }
            final Element sequence = (Element) root.getElementsByTagName("markerSequence").item(0);
            final IIOMetadataNode adobe = new IIOMetadataNode("app14Adobe");
            adobe.setAttribute("version", "100");
            adobe.setAttribute("flags0", "0");
            adobe.setAttribute("flags1", "0");
            adobe.setAttribute("transform", Integer.toString(transform));
            sequence.insertBefore(adobe, sequence.getFirstChild());
            final Element sof = (Element) root.getElementsByTagName("sof").item(0);
            sof.setAttribute("numFrameComponents", "4");
            final NodeList components = root.getElementsByTagName("componentSpec");
            final Element fourth = copy((Element) components.item(0)); // cloneNode would drop the attributes
            fourth.setAttribute("componentId", "4");
            sof.appendChild(fourth);
            for (int i = 0; i < 4; i++) {
                final Element c = (Element) sof.getElementsByTagName("componentSpec").item(i);
                final String factor = i == 0 || i == 3 ? "2" : "1";
                c.setAttribute("HsamplingFactor", factor);
                c.setAttribute("VsamplingFactor", factor);
            }
            final Element sos = (Element) root.getElementsByTagName("sos").item(0);
            sos.setAttribute("numScanComponents", "4");
            final Element scanFourth = copy((Element) sos.getElementsByTagName("scanComponentSpec").item(0));
            scanFourth.setAttribute("componentSelector", "4");
            sos.appendChild(scanFourth);
            md.setFromTree(FORMAT, root);
            writer.setOutput(ios);
            writer.write(null, new IIOImage(raster, null, md), p);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    /** {@return a new metadata node with the name and attributes of {@code node}} */
    private static Element copy(final Element node) {
        final IIOMetadataNode copy = new IIOMetadataNode(node.getNodeName());
        for (int i = 0; i < node.getAttributes().getLength(); i++) {
            copy.setAttribute(node.getAttributes().item(i).getNodeName(), node.getAttributes().item(i).getNodeValue());
        }
        return copy;
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

    /**
     * A 64x64 gray baseline JPEG written by hand whose AC table has a zero-size symbol other than EOB and ZRL:
     * 0x10, "run 1, size 0", which T.81 leaves undefined. FFmpeg's mjpeg decoder takes it as a run of two zero
     * coefficients (libjpeg as an end of block). Every block is: DC category 1 (+1 or -1, DC quantizer 64), 0x10,
     * 0x01 (one coefficient, +1), EOB; zero bytes follow (valid codes: a decoder that loses its place ends the scan
     * without running out of data).
     */
    static byte[] grayWithZeroSizeRuns() {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xD8});
        final byte[] dqt = new byte[2 + 2 + 1 + 64];
        dqt[0] = (byte) 0xFF;
        dqt[1] = (byte) 0xDB;
        dqt[3] = 67;
        java.util.Arrays.fill(dqt, 5, dqt.length, (byte) 1);
        dqt[5] = 64; // DC quantizer: a DC step of 1 is 8 levels at 1/8 scale
        out.writeBytes(dqt);
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xC0, 0, 11, 8, 0, 64, 0, 64, 1, 1, 0x11, 0});
        // DC table 0: "0" -> category 0, "1" -> category 1. AC table 0: 00 EOB, 01 0x10, 10 0x01, 11 0x02.
        final byte[] dcCounts = new byte[16];
        dcCounts[0] = 2;
        final byte[] acCounts = new byte[16];
        acCounts[1] = 4;
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xC4, 0, 2 + 17 + 2 + 17 + 4});
        out.write(0x00);
        out.writeBytes(dcCounts);
        out.writeBytes(new byte[] {0, 1});
        out.write(0x10);
        out.writeBytes(acCounts);
        out.writeBytes(new byte[] {0x00, 0x10, 0x01, 0x02});
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xDA, 0, 8, 1, 1, 0x00, 0, 63, 0});
        long bits = 0;
        int count = 0;
        final ByteArrayOutputStream scan = new ByteArrayOutputStream();
        for (int block = 0; block < 64; block++) {
            final int sign = (block / 8) % 2 == 0 ? 1 : 0; // rows of +1 and -1 steps
            // DC "1" + magnitude bit, 0x10 "01", 0x01 "10" + "1", EOB "00": 9 bits
            final int code = 0b1 << 8 | sign << 7 | 0b01 << 5 | 0b10 << 3 | 0b1 << 2;
            bits = bits << 9 | code;
            count += 9;
            while (count >= 8) {
                scan.write((int) (bits >>> (count - 8)) & 0xFF);
                count -= 8;
            }
        }
        if (count > 0) {
            scan.write((int) (bits << (8 - count)) & 0xFF);
        }
        scan.writeBytes(new byte[64]);
        for (final byte b : scan.toByteArray()) {
            out.write(b);
            if (b == (byte) 0xFF) {
                out.write(0); // byte stuffing
            }
        }
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xD9});
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
