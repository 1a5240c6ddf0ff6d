package org.spdl4j.examples.image;

import org.spdl4j.examples.slots.SlotWriter;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.PerThreadImageDecoders;

/**
 * The image loader's {@link SlotWriter}, what its "decode" stage runs: FFmpeg decodes the image's bytes and swscale
 * writes the final pixels (RGB, short side + center crop, or with augmentation the item's random crop and flip,
 * chosen from its seed) straight into the item's batch slot, in one pass.
 *
 * <p><b>Bad input:</b> a {@code MediaException} (corrupt, truncated, too large) naming the file fails only this
 * sample (the fill stage counts and logs it; the batch is published without it). <b>Threading:</b> any number of
 * workers; each uses its own thread's FFmpeg contexts. <b>Allocation:</b> no pixel or byte buffer; what remains is
 * the JavaCPP wrapper objects of the FFmpeg calls (pointer objects for the codec parameters and pixel-format
 * descriptors; a scaler wrapper only when an image's geometry is new to the decoder), a few hundred bytes per image
 * ({@code ImageDecodeBenchmark -prof gc}: ~0.2 KB on the reduced-scale JPEG path, ~0.9 KB through FFmpeg, 50 B less
 * since scalers are kept by geometry), young-generation garbage that dies at once.
 * <b>Ownership:</b> the item and its bytes stay the caller's (the fill stage releases them after this returns).
 */
final class DecodeWriter implements SlotWriter<ImageItem> {
    private final PerThreadImageDecoders decoders;
    private final ImageSpec spec;

    DecodeWriter(PerThreadImageDecoders decoders, ImageSpec spec) {
        this.decoders = decoders;
        this.spec = spec;
    }

    @Override
    public void write(ImageItem item, long address, int length) {
        // the path names the input in errors (a Path caches its string form: no allocation here)
        decoders.decode(item.bytes.address(), item.length, item.file.path().toString(), spec, item.seed, address,
            length);
    }
}
