package org.spdl4j.media;

/**
 * Where each block of one MCU of the scan being decoded comes from (component, Huffman tables, quantizers) and where
 * its pixels go (plane addresses and steps), one array slot per block in the MCU's coding order. Filled by
 * {@link ReducedJpegDecoder} from the SOS header for each scan, read by {@link ReducedJpegScanDecoder}.
 *
 * <pre>
 *   interleaved 4:2:0 MCU: blocks 0..3 = Y (2x2), 4 = Cb, 5 = Cr
 *   block i, MCU (mx, my): first pixel at base[i] + my * rowStep[i] + mx * columnStep[i]; at 1/4 scale its second
 *                          pixel row is stride[i] further (1/8 writes one pixel per block)
 * </pre>
 *
 * <p>Not thread safe: a mutable description owned by one {@link ReducedJpegDecoder}, rewritten per scan. Allocates
 * nothing after construction.
 */
final class JpegMcuLayout {
    /** Blocks in one MCU at most (T.81 B.2.3). */
    static final int MAX_BLOCKS = 10;

    /** The block's component (0..3), whose DC predictor it updates. */
    final int[] component = new int[MAX_BLOCKS];
    /** The block's DC Huffman table. */
    final JpegHuffmanTable[] dc = new JpegHuffmanTable[MAX_BLOCKS];
    /** The block's AC Huffman table. */
    final JpegHuffmanTable[] ac = new JpegHuffmanTable[MAX_BLOCKS];
    /** Address of the block's first pixel in MCU (0, 0). */
    final long[] base = new long[MAX_BLOCKS];
    /** Bytes from one MCU row to the next, for the block's plane. */
    final long[] rowStep = new long[MAX_BLOCKS];
    /** Bytes from one MCU to the next in a row: the component's horizontal blocks per MCU x pixels per block. */
    final int[] columnStep = new int[MAX_BLOCKS];
    /** 1/4 scale only: bytes from a block's first pixel row to its second (the plane's stride). */
    final long[] stride = new long[MAX_BLOCKS];
    /** DC quantizer (zig-zag position 0) of the block's component. */
    final int[] quant0 = new int[MAX_BLOCKS];
    /** 1/4 scale only: quantizer of zig-zag position 1 (natural 1) of the block's component. */
    final int[] quant1 = new int[MAX_BLOCKS];
    /** 1/4 scale only: quantizer of zig-zag position 2 (natural 8). */
    final int[] quant2 = new int[MAX_BLOCKS];
    /** 1/4 scale only: quantizer of zig-zag position 4 (natural 9). */
    final int[] quant4 = new int[MAX_BLOCKS];
    /** Blocks in the MCU: 1..{@link #MAX_BLOCKS}. */
    int blocks;
}
