package org.spdl4j.perf.media;

import org.agrona.UnsafeApi;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.ffmpeg.global.swscale;
import org.bytedeco.ffmpeg.swscale.SwsContext;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.ScalerQuality;
import org.spdl4j.media.SingleThreadImageDecoder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Per-step cost of the evaluation transform (decode -> RGB -> short side 256 bilinear -> center crop 224) on a folder
 * of images, and the speed and accuracy of swscale flag sets, in one pass over the same decoded frames.
 *
 * <p>For each image and pass: the FFmpeg decode alone (the whole file sent as one packet: entropy decode, IDCT and,
 * for progressive JPEGs, the coefficient passes), building a scaler context for its geometry, each scaler variant
 * (second call on the context, the first warms it), colour conversion of the whole frame to RGB, a plain copy of one
 * 224x224 RGB image (what a decoder writing to its own buffer would add), and spdl4j's whole decoder call on the same
 * bytes (fast and accurate scaler in rotating order, then fast again). The first pass warms the JIT and is not counted; the figure per step is the median over the other passes of
 * the mean per image.
 *
 * <p>Accuracy: each variant's 224x224 output against a double-precision reference computed here, the torchvision
 * definition on a PIL image: full-range BT.601 YUV -> RGB with chroma upsampled bilinearly (centred siting), resize to
 * short side 256 with PIL's antialiased triangle filter (support scaled by the downscale factor), crop 224 at the
 * centre, round. Mean absolute difference per channel over the images whose frames are YUV or grey (JPEGs other
 * than CMYK).
 *
 * <p>Usage: {@code DecodeStepCosts DIR [maxImages] [passes]}. Not thread safe; a measurement program.
 */
public final class DecodeStepCosts {
    private static final int OUT = 224;
    private static final int SHORT = 256;
    private static final int RGB_BYTES = OUT * OUT * 3;

    /** A scaler variant: flags, and whether it converts to RGB at full size first, then scales the RGB image. */
    private record Variant(String name, int flags, boolean rgbFirst) {
    }

    private static final Variant[] VARIANTS = {
        new Variant("BILINEAR|ACCURATE_RND|FULL_CHR_H_INT", swscale.SWS_BILINEAR | swscale.SWS_ACCURATE_RND
                | swscale.SWS_FULL_CHR_H_INT, false),
        new Variant("BILINEAR|FULL_CHR_H_INT", swscale.SWS_BILINEAR | swscale.SWS_FULL_CHR_H_INT, false),
        new Variant("BILINEAR|ACCURATE_RND", swscale.SWS_BILINEAR | swscale.SWS_ACCURATE_RND, false),
        new Variant("BILINEAR", swscale.SWS_BILINEAR, false),
        new Variant("BILINEAR|ACCURATE_RND|BITEXACT", swscale.SWS_BILINEAR | swscale.SWS_ACCURATE_RND
                | swscale.SWS_BITEXACT, false),
        new Variant("FAST_BILINEAR", swscale.SWS_FAST_BILINEAR, false),
        new Variant("AREA", swscale.SWS_AREA, false),
        new Variant("AREA|ACCURATE_RND|FULL_CHR_H_INT", swscale.SWS_AREA | swscale.SWS_ACCURATE_RND
                | swscale.SWS_FULL_CHR_H_INT, false),
        new Variant("RGB first, then BILINEAR|ACCURATE_RND", swscale.SWS_BILINEAR | swscale.SWS_ACCURATE_RND, true),
    };

    private DecodeStepCosts() {
    }

    /**
     * Runs the measurement and prints the tables.
     *
     * @param args the image folder, optionally the most images to use (spread over the folder) and the passes
     * @throws IOException when the folder cannot be read
     */
    public static void main(final String[] args) throws IOException {
        final Path dir = Path.of(args[0]);
        final int max = args.length > 1 ? Integer.parseInt(args[1]) : Integer.MAX_VALUE;
        final int passes = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        final List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = s.filter(Files::isRegularFile).filter(p -> p.toString().matches(".*\\.(jpe?g|png|JPE?G|PNG)$"))
                    .sorted().toList();
        }
        final List<Path> files = new ArrayList<>();
        final double step = Math.max(1.0, (double) all.size() / max);
        for (double i = 0; i < all.size() && files.size() < max; i += step) {
            files.add(all.get((int) i));
        }
        new DecodeStepCosts().run(files, passes);
    }

    private final AVFrame frame = avutil.av_frame_alloc();
    private final LongPointer srcData = new LongPointer(4);
    private final IntPointer srcStride = new IntPointer(4);
    private final LongPointer dstData = new LongPointer(4);
    private final IntPointer dstStride = new IntPointer(4);
    private final PointerPointer<Pointer> srcPlanes = new PointerPointer<>(srcData);
    private final PointerPointer<Pointer> dstPlanes = new PointerPointer<>(dstData);
    private final BytePointer rgbOut = new BytePointer(RGB_BYTES + 256);
    private final BytePointer slot = new BytePointer(RGB_BYTES + 256);
    private final BytePointer yuvOut = new BytePointer(3L * 256 * 256 + 256);
    private BytePointer rgbFull = new BytePointer(1);
    private final IntPointer bt601 = swscale.sws_getCoefficients(swscale.SWS_CS_ITU601);

    private void run(final List<Path> files, final int passes) throws IOException {
        final int n = files.size();
        final BytePointer[] data = new BytePointer[n];
        final AVPacket[] packets = new AVPacket[n];
        final long[] lengths = new long[n];
        for (int i = 0; i < n; i++) {
            final byte[] bytes = Files.readAllBytes(files.get(i));
            lengths[i] = bytes.length;
            data[i] = new BytePointer(avutil.av_malloc(bytes.length + avcodec.AV_INPUT_BUFFER_PADDING_SIZE));
            data[i].position(0).put(bytes);
            UnsafeApi.setMemory(data[i].address() + bytes.length, avcodec.AV_INPUT_BUFFER_PADDING_SIZE, (byte) 0);
            packets[i] = avcodec.av_packet_alloc();
            // The packet owns the data from here; each send gives the decoder a new reference (no copy).
            if (avcodec.av_packet_from_data(packets[i], data[i], bytes.length) < 0) {
                throw new IllegalStateException("av_packet_from_data");
            }
        }
        final AVCodecContext mjpeg = open(avcodec.AV_CODEC_ID_MJPEG);
        final AVCodecContext png = open(avcodec.AV_CODEC_ID_PNG);
        final SingleThreadImageDecoder spdl4j = new SingleThreadImageDecoder(MediaLimits.DEFAULT);
        final ImageSpec spec = ImageSpec.centerCrop(SHORT, OUT, PixelFormat.RGB24);
        final ImageSpec fastSpec = spec.withScalerQuality(ScalerQuality.FAST);
        final ImageSpec accurateSpec = spec.withScalerQuality(ScalerQuality.ACCURATE);
        final int v = VARIANTS.length;
        // [pass][step] sums of nanoseconds over the images
        final int steps = 7 + v;
        final double[][] sums = new double[passes][steps];
        final double[][] mad = new double[v][3];
        final double[] madMax = new double[v];
        final double[][] madRect = new double[v][3];
        int refImages = 0;
        int skippedDecode = 0;
        final java.util.Set<String> geometries = new java.util.HashSet<>();
        final int[] refDone = new int[1];
        for (int pass = 0; pass < passes; pass++) {
            for (int i = 0; i < n; i++) {
                final boolean isPng = data[i].get(0) == (byte) 0x89;
                final AVCodecContext codec = isPng ? png : mjpeg;
                // whole spdl4j decoder: FAST and ACCURATE in rotating order (each a context miss on a new size),
                // then FAST again (a context hit)
                final String label = files.get(i).toString();
                for (int j = 0; j < 2; j++) {
                    final int which = (i + j) % 2;
                    final long t0 = System.nanoTime();
                    spdl4j.decode(data[i].address(), lengths[i], label, which == 0 ? fastSpec : accurateSpec,
                            slot.address(), RGB_BYTES);
                    sums[pass][which] += System.nanoTime() - t0;
                }
                long t0 = System.nanoTime();
                spdl4j.decode(data[i].address(), lengths[i], label, fastSpec, slot.address(), RGB_BYTES);
                long t1 = System.nanoTime();
                sums[pass][2] += t1 - t0;
                // decode alone
                t0 = System.nanoTime();
                int ret = avcodec.avcodec_send_packet(codec, packets[i]);
                if (ret >= 0) {
                    ret = avcodec.avcodec_receive_frame(codec, frame);
                }
                t1 = System.nanoTime();
                if (ret < 0) {
                    avcodec.avcodec_flush_buffers(codec);
                    skippedDecode++;
                    continue;
                }
                sums[pass][3] += t1 - t0;
                final int fmt = swsFormat(frame.format());
                final AVPixFmtDescriptor desc = avutil.av_pix_fmt_desc_get(frame.format());
                final int w = frame.width();
                final int h = frame.height();
                final Geometry g = Geometry.of(w, h, desc.log2_chroma_w(), desc.log2_chroma_h());
                if (pass == 0) {
                    geometries.add(g.srcW + "x" + g.srcH + ":" + fmt);
                }
                // context build for the default flags (a rebuild per image when the sizes vary)
                t0 = System.nanoTime();
                final SwsContext built = swscale.sws_getContext(g.srcW, g.srcH, fmt, OUT, OUT,
                        avutil.AV_PIX_FMT_RGB24, VARIANTS[0].flags, null, null, (DoublePointer) null);
                t1 = System.nanoTime();
                swscale.sws_freeContext(built);
                sums[pass][4] += t1 - t0;
                // scaling alone: YUV -> YUV of the same subsampling, 224x224
                sums[pass][5] += scaleOnly(g, fmt, desc);
                // colour conversion (and chroma upsampling) of the whole frame: what an RGB-first decoder pays
                sums[pass][6] += toRgbFull(fmt, w, h, swscale.SWS_POINT | swscale.SWS_ACCURATE_RND
                        | swscale.SWS_FULL_CHR_H_INT);
                final double[] ref = pass == 0 && isYuvOrGrey(frame.format()) ? reference(g, false) : null;
                final double[] rect = ref == null ? null : reference(g, true);
                // a context cache miss: build + first call, per quality
                missNanos[pass][0] += miss(g, fmt, desc, VARIANTS[0].flags);
                missNanos[pass][1] += miss(g, fmt, desc, VARIANTS[3].flags);
                for (int k = 0; k < v; k++) {
                    sums[pass][7 + k] += scale(VARIANTS[k], g, fmt, desc);
                    if (ref != null) {
                        final byte[] got = new byte[RGB_BYTES];
                        rgbOut.position(0).get(got);
                        double worst = 0;
                        for (int c = 0; c < 3; c++) {
                            double s = 0;
                            double r = 0;
                            for (int p = c; p < RGB_BYTES; p += 3) {
                                s += Math.abs((got[p] & 0xff) - ref[p]);
                                r += Math.abs((got[p] & 0xff) - rect[p]);
                            }
                            mad[k][c] += s / (OUT * OUT);
                            madRect[k][c] += r / (OUT * OUT);
                            worst = Math.max(worst, s / (OUT * OUT));
                        }
                        madMax[k] = Math.max(madMax[k], worst);
                    }
                }
                if (ref != null) {
                    refDone[0]++;
                }
                avutil.av_frame_unref(frame);
            }
            // copy of one output image into a slot, per image (a decoder that writes its own buffer pays it)
            final long c0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                UnsafeApi.copyMemory(rgbOut.address(), slot.address(), RGB_BYTES);
            }
            copyNanos[pass] = (double) (System.nanoTime() - c0) / n;
        }
        refImages = refDone[0];
        final String[] names = new String[steps];
        names[0] = "spdl4j decoder call, ScalerQuality.FAST (scaler context miss)";
        names[1] = "spdl4j decoder call, ScalerQuality.ACCURATE (scaler context miss)";
        names[2] = "spdl4j decoder call, ScalerQuality.FAST again (context hit)";
        names[3] = "FFmpeg decode alone (entropy + IDCT [+ progressive passes])";
        names[4] = "swscale context build (default flags)";
        names[5] = "scaling alone (YUV -> YUV 224x224, BILINEAR|ACCURATE_RND)";
        names[6] = "colour conversion + chroma upsampling, whole frame (POINT)";
        for (int k = 0; k < v; k++) {
            names[7 + k] = "scale+convert " + VARIANTS[k].name;
        }
        System.out.printf("images %d (decode failures skipped %d), distinct crop geometries %d, passes %d (first is"
                + " warm-up)%n", n, skippedDecode, geometries.size(), passes);
        System.out.println("| step | us per image (median of passes) | min | max |");
        System.out.println("|---|---:|---:|---:|");
        for (int s = 0; s < steps; s++) {
            final double[] per = new double[passes - 1];
            for (int p = 1; p < passes; p++) {
                per[p - 1] = sums[p][s] / n / 1000.0;
            }
            Arrays.sort(per);
            System.out.printf("| %s | %.1f | %.1f | %.1f |%n", names[s], per[per.length / 2], per[0],
                    per[per.length - 1]);
        }
        final double[] copies = Arrays.copyOfRange(copyNanos, 1, passes);
        Arrays.sort(copies);
        System.out.printf("| copy of one 224x224 RGB image into a slot | %.2f | %.2f | %.2f |%n",
                copies[copies.length / 2] / 1000.0, copies[0] / 1000.0, copies[copies.length - 1] / 1000.0);
        for (int q = 0; q < 2; q++) {
            final double[] per = new double[passes - 1];
            for (int p = 1; p < passes; p++) {
                per[p - 1] = missNanos[p][q] / n / 1000.0;
            }
            Arrays.sort(per);
            System.out.printf("| context miss (build + first call), %s | %.1f | %.1f | %.1f |%n",
                    VARIANTS[q == 0 ? 0 : 3].name, per[per.length / 2], per[0], per[per.length - 1]);
        }
        System.out.printf("%naccuracy against the double-precision reference, %d images (YUV and grey JPEGs)%n",
                refImages);
        System.out.println("| variant | MAD R, G, B vs torchvision geometry | worst image's worst channel"
                + " | MAD R, G, B vs the same source rectangle |");
        System.out.println("|---|---|---:|---|");
        for (int k = 0; k < v; k++) {
            System.out.printf("| %s | %.3f, %.3f, %.3f | %.2f | %.3f, %.3f, %.3f |%n", VARIANTS[k].name,
                    mad[k][0] / refImages, mad[k][1] / refImages, mad[k][2] / refImages, madMax[k],
                    madRect[k][0] / refImages, madRect[k][1] / refImages, madRect[k][2] / refImages);
        }
        spdl4j.close();
        avcodec.avcodec_free_context(mjpeg);
        avcodec.avcodec_free_context(png);
        for (int i = 0; i < n; i++) {
            avcodec.av_packet_free(packets[i]); // frees data[i] with it
        }
        avutil.av_frame_free(frame);
    }

    private final double[] copyNanos = new double[64];
    private final double[][] missNanos = new double[64][2];

    private long miss(final Geometry g, final int fmt, final AVPixFmtDescriptor desc, final int flags) {
        setSource(g, desc);
        dst(rgbOut.address(), OUT * 3);
        final long t0 = System.nanoTime();
        final SwsContext sws = swscale.sws_getContext(g.srcW, g.srcH, fmt, OUT, OUT, avutil.AV_PIX_FMT_RGB24,
                flags, null, null, (DoublePointer) null);
        colorspace(sws, bt601);
        swscale.sws_scale(sws, srcPlanes, srcStride, 0, g.srcH, dstPlanes, dstStride);
        final long t = System.nanoTime() - t0;
        swscale.sws_freeContext(sws);
        return t;
    }

    private static AVCodecContext open(final int id) {
        final AVCodec codec = avcodec.avcodec_find_decoder(id);
        final AVCodecContext c = avcodec.avcodec_alloc_context3(codec);
        c.thread_count(1);
        if (avcodec.avcodec_open2(c, codec, (AVDictionary) null) < 0) {
            throw new IllegalStateException("cannot open decoder " + id);
        }
        return c;
    }

    /** The centre crop's source rectangle, as spdl4j's ScalePlan computes it, and the torchvision resize. */
    private record Geometry(int w, int h, int srcX, int srcY, int srcW, int srcH, long resizedW, long resizedH,
                            long left, long top) {
        static Geometry of(final int w, final int h, final int log2W, final int log2H) {
            final long rw = w <= h ? SHORT : (long) SHORT * w / h;
            final long rh = w <= h ? (long) SHORT * h / w : SHORT;
            final long left = (long) Math.rint((rw - OUT) / 2.0);
            final long top = (long) Math.rint((rh - OUT) / 2.0);
            final double sx = (double) w / rw;
            final double sy = (double) h / rh;
            final int srcW = clamp((int) Math.round(OUT * sx), 1, w);
            final int srcH = clamp((int) Math.round(OUT * sy), 1, h);
            final int srcX = (clamp((int) Math.round(left * sx), 0, w - srcW) >> log2W) << log2W;
            final int srcY = (clamp((int) Math.round(top * sy), 0, h - srcH) >> log2H) << log2H;
            return new Geometry(w, h, srcX, srcY, srcW, srcH, rw, rh, left, top);
        }
    }

    private static int clamp(final int v, final int lo, final int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    private void setSource(final Geometry g, final AVPixFmtDescriptor desc) {
        for (int p = 0; p < 4; p++) {
            final long base = frame.data(p) == null ? 0 : frame.data(p).address();
            final int stride = frame.linesize(p);
            if (base == 0) {
                srcData.put(p, 0);
                srcStride.put(p, 0);
                continue;
            }
            final boolean chroma = p == 1 || p == 2;
            final int y = chroma ? g.srcY >> desc.log2_chroma_h() : g.srcY;
            final long x = g.srcX == 0 ? 0 : avutil.av_image_get_linesize(frame.format(), g.srcX, p);
            srcData.put(p, base + (long) y * stride + Math.max(0, x));
            srcStride.put(p, stride);
        }
    }

    private static void colorspace(final SwsContext sws, final IntPointer bt601) {
        swscale.sws_setColorspaceDetails(sws, bt601, 1, bt601, 1, 0, 1 << 16, 1 << 16);
    }

    private long scale(final Variant variant, final Geometry g, final int fmt, final AVPixFmtDescriptor desc) {
        setSource(g, desc);
        if (variant.rgbFirst) {
            // whole crop to RGB at its own size, then RGB -> 224x224
            final long need = (long) g.srcW * g.srcH * 3 + 256;
            if (rgbFull.capacity() < need) {
                rgbFull.close();
                rgbFull = new BytePointer(need);
            }
            final SwsContext a = swscale.sws_getContext(g.srcW, g.srcH, fmt, g.srcW, g.srcH, avutil.AV_PIX_FMT_RGB24,
                    swscale.SWS_POINT | swscale.SWS_ACCURATE_RND | swscale.SWS_FULL_CHR_H_INT, null, null,
                    (DoublePointer) null);
            colorspace(a, bt601);
            final SwsContext b = swscale.sws_getContext(g.srcW, g.srcH, avutil.AV_PIX_FMT_RGB24, OUT, OUT,
                    avutil.AV_PIX_FMT_RGB24, variant.flags, null, null, (DoublePointer) null);
            long best = 0;
            for (int r = 0; r < 2; r++) {
                setSource(g, desc);
                final long t0 = System.nanoTime();
                dst(rgbFull.address(), g.srcW * 3);
                swscale.sws_scale(a, srcPlanes, srcStride, 0, g.srcH, dstPlanes, dstStride);
                srcData.put(0, rgbFull.address());
                srcStride.put(0, g.srcW * 3);
                for (int p = 1; p < 4; p++) {
                    srcData.put(p, 0);
                    srcStride.put(p, 0);
                }
                dst(rgbOut.address(), OUT * 3);
                swscale.sws_scale(b, srcPlanes, srcStride, 0, g.srcH, dstPlanes, dstStride);
                best = System.nanoTime() - t0;
            }
            swscale.sws_freeContext(a);
            swscale.sws_freeContext(b);
            return best;
        }
        final SwsContext sws = swscale.sws_getContext(g.srcW, g.srcH, fmt, OUT, OUT, avutil.AV_PIX_FMT_RGB24,
                variant.flags, null, null, (DoublePointer) null);
        colorspace(sws, bt601);
        long last = 0;
        for (int r = 0; r < 2; r++) {
            dst(rgbOut.address(), OUT * 3);
            final long t0 = System.nanoTime();
            swscale.sws_scale(sws, srcPlanes, srcStride, 0, g.srcH, dstPlanes, dstStride);
            last = System.nanoTime() - t0;
        }
        swscale.sws_freeContext(sws);
        return last;
    }

    private void dst(final long address, final int stride) {
        dstData.put(0, address);
        dstStride.put(0, stride);
        for (int p = 1; p < 4; p++) {
            dstData.put(p, 0);
            dstStride.put(p, 0);
        }
    }

    private long scaleOnly(final Geometry g, final int fmt, final AVPixFmtDescriptor desc) {
        setSource(g, desc);
        final SwsContext sws = swscale.sws_getContext(g.srcW, g.srcH, fmt, OUT, OUT, fmt,
                swscale.SWS_BILINEAR | swscale.SWS_ACCURATE_RND, null, null, (DoublePointer) null);
        if (sws == null || sws.isNull()) {
            return 0;
        }
        for (int p = 0; p < 4; p++) {
            dstData.put(p, p < 3 ? yuvOut.address() + p * 65536L : 0);
            dstStride.put(p, p < 3 ? 256 : 0);
        }
        long last = 0;
        for (int r = 0; r < 2; r++) {
            final long t0 = System.nanoTime();
            swscale.sws_scale(sws, srcPlanes, srcStride, 0, g.srcH, dstPlanes, dstStride);
            last = System.nanoTime() - t0;
        }
        swscale.sws_freeContext(sws);
        return last;
    }

    private long toRgbFull(final int fmt, final int w, final int h, final int flags) {
        final long need = (long) w * h * 3 + 256;
        if (rgbFull.capacity() < need) {
            rgbFull.close();
            rgbFull = new BytePointer(need);
        }
        for (int p = 0; p < 4; p++) {
            srcData.put(p, frame.data(p) == null ? 0 : frame.data(p).address());
            srcStride.put(p, frame.linesize(p));
        }
        final SwsContext sws = swscale.sws_getContext(w, h, fmt, w, h, avutil.AV_PIX_FMT_RGB24, flags, null, null,
                (DoublePointer) null);
        colorspace(sws, bt601);
        dst(rgbFull.address(), w * 3);
        long last = 0;
        for (int r = 0; r < 2; r++) {
            final long t0 = System.nanoTime();
            swscale.sws_scale(sws, srcPlanes, srcStride, 0, h, dstPlanes, dstStride);
            last = System.nanoTime() - t0;
        }
        swscale.sws_freeContext(sws);
        return last;
    }

    private static boolean isYuvOrGrey(final int format) {
        return format == avutil.AV_PIX_FMT_YUVJ420P || format == avutil.AV_PIX_FMT_YUVJ422P
                || format == avutil.AV_PIX_FMT_YUVJ444P || format == avutil.AV_PIX_FMT_YUVJ440P
                || format == avutil.AV_PIX_FMT_YUV420P || format == avutil.AV_PIX_FMT_YUV422P
                || format == avutil.AV_PIX_FMT_YUV444P || format == avutil.AV_PIX_FMT_GRAY8;
    }

    private static int swsFormat(final int format) {
        if (format == avutil.AV_PIX_FMT_YUVJ420P) {
            return avutil.AV_PIX_FMT_YUV420P;
        } else if (format == avutil.AV_PIX_FMT_YUVJ422P) {
            return avutil.AV_PIX_FMT_YUV422P;
        } else if (format == avutil.AV_PIX_FMT_YUVJ444P) {
            return avutil.AV_PIX_FMT_YUV444P;
        } else if (format == avutil.AV_PIX_FMT_YUVJ440P) {
            return avutil.AV_PIX_FMT_YUV440P;
        }
        return format;
    }

    /**
     * The double-precision reference of the 224x224 RGB output, interleaved: full-range BT.601 with bilinear chroma
     * (centred siting), PIL's antialiased triangle resize to the short side, centre crop; or, with {@code sameRect},
     * the same filter from exactly the source rectangle the scaler reads to 224x224 (no geometry difference).
     */
    private double[] reference(final Geometry g, final boolean sameRect) {
        final int w = g.w;
        final int h = g.h;
        final boolean grey = frame.format() == avutil.AV_PIX_FMT_GRAY8;
        final AVPixFmtDescriptor desc = avutil.av_pix_fmt_desc_get(frame.format());
        final int cw = desc.log2_chroma_w();
        final int ch = desc.log2_chroma_h();
        final double[][] rgb = new double[3][w * h];
        final byte[] yRow = new byte[w];
        final int chromaW = -((-w) >> cw);
        final int chromaH = -((-h) >> ch);
        final double[] u = new double[chromaW * chromaH];
        final double[] vv = new double[chromaW * chromaH];
        if (!grey) {
            final byte[] row = new byte[chromaW];
            for (int y = 0; y < chromaH; y++) {
                frame.data(1).position((long) y * frame.linesize(1)).get(row);
                for (int x = 0; x < chromaW; x++) {
                    u[y * chromaW + x] = row[x] & 0xff;
                }
                frame.data(2).position((long) y * frame.linesize(2)).get(row);
                for (int x = 0; x < chromaW; x++) {
                    vv[y * chromaW + x] = row[x] & 0xff;
                }
            }
            frame.data(1).position(0);
            frame.data(2).position(0);
        }
        for (int y = 0; y < h; y++) {
            frame.data(0).position((long) y * frame.linesize(0)).get(yRow);
            final double cy = Math.min(Math.max((y + 0.5) / (1 << ch) - 0.5, 0), chromaH - 1);
            final int y0 = (int) Math.floor(cy);
            final int y1 = Math.min(y0 + 1, chromaH - 1);
            final double fy = cy - y0;
            for (int x = 0; x < w; x++) {
                final double luma = yRow[x] & 0xff;
                if (grey) {
                    rgb[0][y * w + x] = luma;
                    rgb[1][y * w + x] = luma;
                    rgb[2][y * w + x] = luma;
                    continue;
                }
                final double cx = Math.min(Math.max((x + 0.5) / (1 << cw) - 0.5, 0), chromaW - 1);
                final int x0 = (int) Math.floor(cx);
                final int x1 = Math.min(x0 + 1, chromaW - 1);
                final double fx = cx - x0;
                final double cb = bilerp(u, chromaW, x0, x1, y0, y1, fx, fy) - 128;
                final double cr = bilerp(vv, chromaW, x0, x1, y0, y1, fx, fy) - 128;
                rgb[0][y * w + x] = clamp255(luma + 1.402 * cr);
                rgb[1][y * w + x] = clamp255(luma - 0.344136 * cb - 0.714136 * cr);
                rgb[2][y * w + x] = clamp255(luma + 1.772 * cb);
            }
        }
        frame.data(0).position(0);
        final int[] fx = new int[OUT];
        final int[] fy = new int[OUT];
        final double[][] wx;
        final double[][] wy;
        if (sameRect) {
            wx = weights((double) g.srcW / OUT, g.srcX, g.srcX, g.srcX + g.srcW, fx);
            wy = weights((double) g.srcH / OUT, g.srcY, g.srcY, g.srcY + g.srcH, fy);
        } else {
            final double sx = (double) w / g.resizedW;
            final double sy = (double) h / g.resizedH;
            wx = weights(sx, g.left * sx, 0, w, fx);
            wy = weights(sy, g.top * sy, 0, h, fy);
        }
        final double[] out = new double[RGB_BYTES];
        final double[] tmp = new double[w];
        for (int c = 0; c < 3; c++) {
            for (int oy = 0; oy < OUT; oy++) {
                Arrays.fill(tmp, 0);
                for (int k = 0; k < wy[oy].length; k++) {
                    final int sy = fy[oy] + k;
                    final double wk = wy[oy][k];
                    for (int x = 0; x < w; x++) {
                        tmp[x] += wk * rgb[c][sy * w + x];
                    }
                }
                for (int ox = 0; ox < OUT; ox++) {
                    double s = 0;
                    for (int k = 0; k < wx[ox].length; k++) {
                        s += wx[ox][k] * tmp[fx[ox] + k];
                    }
                    out[(oy * OUT + ox) * 3 + c] = Math.rint(clamp255(s));
                }
            }
        }
        return out;
    }

    private static double bilerp(final double[] p, final int stride, final int x0, final int x1, final int y0,
                                 final int y1, final double fx, final double fy) {
        final double a = p[y0 * stride + x0] * (1 - fx) + p[y0 * stride + x1] * fx;
        final double b = p[y1 * stride + x0] * (1 - fx) + p[y1 * stride + x1] * fx;
        return a * (1 - fy) + b * fy;
    }

    private static double clamp255(final double v) {
        return Math.max(0, Math.min(255, v));
    }

    /**
     * PIL's bilinear (triangle) weights, support scaled by the downscale factor: output pixel o centred on source
     * coordinate {@code origin + (o + 0.5) * scale}, taps clipped to [lo, hi). Returns the first tap in {@code first}.
     */
    private static double[][] weights(final double scale, final double origin, final int lo, final int hi,
                                      final int[] first) {
        final double support = Math.max(scale, 1.0);
        final double[][] w = new double[OUT][];
        for (int o = 0; o < OUT; o++) {
            final double center = origin + (o + 0.5) * scale;
            final int a = Math.max(lo, (int) Math.floor(center - support + 0.5));
            final int b = Math.min(hi, (int) Math.floor(center + support + 0.5));
            final double[] k = new double[Math.max(0, b - a)];
            double sum = 0;
            for (int j = a; j < b; j++) {
                final double t = Math.abs((j - center + 0.5) / support);
                k[j - a] = Math.max(0, 1 - t);
                sum += k[j - a];
            }
            for (int j = 0; j < k.length; j++) {
                k[j] /= sum;
            }
            w[o] = k;
            first[o] = a;
        }
        return w;
    }
}
