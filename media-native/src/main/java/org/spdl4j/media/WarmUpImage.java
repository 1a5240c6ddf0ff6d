package org.spdl4j.media;

/**
 * A 16x16 baseline JPEG (659 bytes, generated once with ImageIO) that {@link PerThreadImageDecoders} decodes when it
 * is created, so FFmpeg's one-time decoder set-up and the JIT's first pass over the decode path happen before a
 * pipeline starts rather than in its first batch.
 */
final class WarmUpImage {
    private static final String HEX =
            "ffd8ffe000104a46494600010200000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912"
            + "130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffdb0043010909"
            + "090c0b0c180d0d1832211c21323232323232323232323232323232323232323232323232323232323232323232323232"
            + "3232323232323232323232323232ffc00011080010001003012200021101031101ffc4001f0000010501010101010100"
            + "000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d010203000411051221"
            + "31410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a"
            + "434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a9293949596979899"
            + "9aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1"
            + "f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b51100"
            + "020102040403040705040400010277000102031104052131061241510761711322328108144291a1b1c109233352f015"
            + "6272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a63646566676869"
            + "6a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4"
            + "c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f00f3"
            + "fb1d0ba7c95d358685d3e4ae96c342e9f2574f63a174f92b4c5e6be62e1fcef6d4ffd9";

    /**
     * Limits to decode the image under, so that the warm-up does not depend on the caller's limits, which may be
     * stricter than this image (fewer than 256 pixels, fewer than 659 bytes). Ample rather than tight: FFmpeg checks
     * {@code max_pixels} against the frame's width padded to its stride alignment (up to 64), not the image's.
     */
    static final MediaLimits LIMITS = new MediaLimits(1 << 16, 1, 1, 1 << 16);

    private WarmUpImage() {
    }

    /** {@return the JPEG's bytes (a new array)} */
    static byte[] jpeg() {
        byte[] b = new byte[HEX.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(HEX, 2 * i, 2 * i + 2, 16);
        }
        return b;
    }
}
