package org.spdl4j.perf.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.SingleThreadImageDecoder;

import javax.imageio.ImageIO;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Decode one JPEG + Resize(256) + CenterCrop(224) to RGB, images per second, per photo size:
 * <ul>
 *   <li>{@code spdl4j}: reduced-scale decode when it helps (at 1/8 and 1/4 scale spdl4j's own reduced-scale JPEG
 *       decoder, at 1/2 FFmpeg's lowres) + one swscale pass into an off-heap destination;</li>
 *   <li>{@code spdl4jFfmpegLowres}: the same with spdl4j's decoder off (a decoder built with
 *       {@code reducedJpegDecode} false), so 1/8 scale is FFmpeg's lowres 3;</li>
 *   <li>{@code spdl4jQuarter}, {@code spdl4jQuarterFfmpegLowres}: the same two for Resize(512) + CenterCrop(448),
 *       which a 12 MP photo (4000x3000) decodes at exactly 1/4 scale (spdl4j's reduced-scale decoder vs FFmpeg's
 *       lowres 2);</li>
 *   <li>{@code spdl4jFullScale}: the same with reduced-scale decoding off (the reduced-decode gain is the ratio);</li>
 *   <li>{@code imageIo}: what a Java developer writes today: ImageIO.read + Graphics2D bilinear drawImage of the
 *       crop region into a 224x224 image;</li>
 *   <li>{@code spdl4jTwoThreads}: {@code spdl4j} on two threads, each with its own decoder (scaling = ratio to
 *       {@code spdl4j}).</li>
 * </ul>
 * Photos are generated at setup ({@link PhotoJpegs}; {@code 12mp-dense} has a camera photo's 2.3 bits per pixel, the
 * others are lighter); input bytes sit in native memory as an off-heap lease would.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class ImageDecodeBenchmark {
    @Param({"small", "medium", "12mp", "12mp-dense"})
    public String photo;

    private byte[] jpeg;
    private UnsafeBuffer input;
    private UnsafeBuffer output;
    private SingleThreadImageDecoder decoder;
    private SingleThreadImageDecoder ffmpegLowresDecoder;
    private final ImageSpec spec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
    private final ImageSpec fullScale = spec.withLowres(false);
    private final ImageSpec quarter = ImageSpec.centerCrop(512, 448, PixelFormat.RGB24);
    private final BufferedImage target = new BufferedImage(224, 224, BufferedImage.TYPE_3BYTE_BGR);

    @Setup(Level.Trial)
    public void setUp() {
        jpeg = PhotoJpegs.named(photo, 42);
        input = new UnsafeBuffer(ByteBuffer.allocateDirect(jpeg.length));
        input.putBytes(0, jpeg);
        output = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(spec.bytes(), quarter.bytes())));
        decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT); // created on this benchmark thread
        ffmpegLowresDecoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false);
        // ImageIO.read(InputStream) would otherwise spool every stream through a temporary file: decode only.
        ImageIO.setUseCache(false);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        decoder.close();
        ffmpegLowresDecoder.close();
    }

    @Benchmark
    public int spdl4j() {
        return decoder.decode(input, 0, jpeg.length, photo, spec, output, 0);
    }

    @Benchmark
    @Threads(2)
    public int spdl4jTwoThreads() {
        return decoder.decode(input, 0, jpeg.length, photo, spec, output, 0);
    }

    @Benchmark
    public int spdl4jFfmpegLowres() {
        return ffmpegLowresDecoder.decode(input, 0, jpeg.length, photo, spec, output, 0);
    }

    @Benchmark
    public int spdl4jQuarter() {
        return decoder.decode(input, 0, jpeg.length, photo, quarter, output, 0);
    }

    @Benchmark
    public int spdl4jQuarterFfmpegLowres() {
        return ffmpegLowresDecoder.decode(input, 0, jpeg.length, photo, quarter, output, 0);
    }

    @Benchmark
    public int spdl4jFullScale() {
        return decoder.decode(input, 0, jpeg.length, photo, fullScale, output, 0);
    }

    @Benchmark
    public BufferedImage imageIo() throws IOException {
        final BufferedImage src = ImageIO.read(new ByteArrayInputStream(jpeg));
        final int w = src.getWidth();
        final int h = src.getHeight();
        // Resize(256) + CenterCrop(224), expressed as the source rectangle the crop covers.
        final double scale = 256.0 / Math.min(w, h);
        final int cw = (int) Math.round(224 / scale);
        final int x0 = (w - cw) / 2;
        final int y0 = (h - cw) / 2;
        final Graphics2D g = target.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(src, 0, 0, 224, 224, x0, y0, x0 + cw, y0 + cw, null);
        g.dispose();
        return target;
    }
}
