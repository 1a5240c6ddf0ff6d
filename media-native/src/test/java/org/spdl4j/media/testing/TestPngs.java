package org.spdl4j.media.testing;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * PNGs of one colour written byte by byte (IHDR, one IDAT, IEND), at any size: a 10000x10000 image compresses to about
 * 100 KB, so huge test images are generated at test time, in well under a second. Test code (media-native's test
 * jar: other modules' tests and perf's decode-memory harness use it).
 */
public final class TestPngs {
    private TestPngs() {
    }

    /**
     * {@return an 8-bit PNG of one colour (every sample {@code value})}
     *
     * @param width      pixels
     * @param height     pixels
     * @param colourType 0 gray, 2 RGB, 6 RGBA
     * @param value      every sample's value
     */
    public static byte[] uniform(final int width, final int height, final int colourType, final int value) {
        final int channels = switch (colourType) {
            case 0 -> 1;
            case 2 -> 3;
            case 6 -> 4;
            default -> throw new IllegalArgumentException("colour type " + colourType);
        };
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        chunk(out, "IHDR", ByteBuffer.allocate(13).putInt(width).putInt(height).put((byte) 8)
                .put((byte) colourType).put((byte) 0).put((byte) 0).put((byte) 0).array());
        final byte[] row = new byte[1 + width * channels]; // filter byte 0 (none), then the samples
        java.util.Arrays.fill(row, 1, row.length, (byte) value);
        final Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        final ByteArrayOutputStream idat = new ByteArrayOutputStream();
        final byte[] buf = new byte[1 << 16];
        try {
            for (int y = 0; y < height; y++) {
                deflater.setInput(row);
                while (!deflater.needsInput()) {
                    idat.write(buf, 0, deflater.deflate(buf));
                }
            }
            deflater.finish();
            while (!deflater.finished()) {
                idat.write(buf, 0, deflater.deflate(buf));
            }
        } finally {
            deflater.end();
        }
        chunk(out, "IDAT", idat.toByteArray());
        chunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    private static void chunk(final ByteArrayOutputStream out, final String type, final byte[] data) {
        final byte[] name = type.getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(name);
        out.writeBytes(data);
        final CRC32 crc = new CRC32();
        crc.update(name);
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }
}
