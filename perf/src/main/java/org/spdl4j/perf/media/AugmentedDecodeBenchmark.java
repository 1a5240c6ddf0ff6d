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
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.RandomResizedCrop;
import org.spdl4j.offheap.batch.SampleSeeds;
import org.spdl4j.media.SingleThreadImageDecoder;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The training transform's cost against the evaluation transform's, one JPEG to 224x224 RGB, images per second:
 * <ul>
 *   <li>{@code centerCrop}: Resize(256) + CenterCrop(224) (as {@code ImageDecodeBenchmark.spdl4j});</li>
 *   <li>{@code randomCrop}: RandomResizedCrop(224, scale 0.08-1, ratio 3/4-4/3) + flip with p 0.5, a new seed per
 *       call as a training epoch gives: the crop, so the reduced JPEG scale (12 MP: 1/2, 1/4 or 1/8 by crop size
 *       instead of always 1/8) and the scaler's geometry (the swscale context is rebuilt) change every image;</li>
 *   <li>{@code randomCropNoFlip}: the same without the flip (the in-place row mirror's share is the difference);</li>
 *   <li>{@code randomCropFixedSeed}: the same seed every call (one crop, so one scaler context, kept): on the small
 *       photo, always decoded at full scale, the difference to {@code randomCrop} is the per-image scaler rebuild; on
 *       12 MP it also holds that one crop's reduced scale.</li>
 * </ul>
 * Run with {@code -prof gc}: every variant should show no allocation per image ({@code gc.alloc.rate.norm} near 0).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class AugmentedDecodeBenchmark {
    @Param({"small", "12mp"})
    public String photo;

    private final ImageSpec center = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
    private final ImageSpec random = ImageSpec.randomResizedCrop(224, RandomResizedCrop.imagenet(), PixelFormat.RGB24);
    private final ImageSpec randomNoFlip = ImageSpec.randomResizedCrop(224,
            RandomResizedCrop.imagenet().withFlipProbability(0), PixelFormat.RGB24);
    private byte[] jpeg;
    private UnsafeBuffer input;
    private UnsafeBuffer output;
    private SingleThreadImageDecoder decoder;
    private long sample;

    @Setup(Level.Trial)
    public void setUp() {
        jpeg = PhotoJpegs.named(photo, 42);
        input = new UnsafeBuffer(ByteBuffer.allocateDirect(jpeg.length));
        input.putBytes(0, jpeg);
        output = new UnsafeBuffer(ByteBuffer.allocateDirect(center.bytes()));
        decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT); // created on this benchmark thread
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        decoder.close();
    }

    @Benchmark
    public int centerCrop() {
        return decoder.decode(input.addressOffset(), jpeg.length, photo, center, output.addressOffset(),
                output.capacity());
    }

    @Benchmark
    public int randomCrop() {
        return decoder.decode(input.addressOffset(), jpeg.length, photo, random, SampleSeeds.of(1, 0, sample++),
                output.addressOffset(), output.capacity());
    }

    @Benchmark
    public int randomCropNoFlip() {
        return decoder.decode(input.addressOffset(), jpeg.length, photo, randomNoFlip, SampleSeeds.of(1, 0, sample++),
                output.addressOffset(), output.capacity());
    }

    @Benchmark
    public int randomCropFixedSeed() {
        return decoder.decode(input.addressOffset(), jpeg.length, photo, random, 12345, output.addressOffset(),
                output.capacity());
    }
}
