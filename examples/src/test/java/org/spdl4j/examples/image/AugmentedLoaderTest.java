package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.source.EpochIterable;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.IndexedDataset;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.RemainderPolicy;
import org.spdl4j.engine.source.SampledSource;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.RandomResizedCrop;
import org.spdl4j.offheap.batch.SampleSeeds;
import org.spdl4j.media.SingleThreadImageDecoder;
import org.spdl4j.offheap.batch.Batch;

/**
 * The loader with the training transform, end to end: every sample of every batch is exactly what a bare decoder
 * writes for that file with the seed {@code SampleSeeds.of(runSeed, epoch, keyId(key))}, whatever the decode
 * concurrency and output order, so a repeated epoch gives the same crops; another epoch gives other crops; and the
 * pools and FFmpeg contexts come back.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AugmentedLoaderTest {
    private static final long RUN_SEED = 9;
    private static final int CROP = 64;

    @TempDir
    static Path dir;
    static List<FileItem> files;

    @BeforeAll
    static void writeImages() throws Exception {
        files = LoaderTestFiles.good(dir, 18); // 4 batches of 4 and a partial one of 2
    }

    private static ImageLoaderOptions options() {
        return new ImageLoaderOptions(CROP, 72, 4, false, 8, 2, OutputOrder.COMPLETION, WaitPolicy.BACKOFF, 4, 4)
            .withAugmentation(RandomResizedCrop.imagenet(), RUN_SEED);
    }

    /** Runs a loader to the end; {@return each label's samples, in arrival order} */
    private static Map<Integer, List<ByteBuffer>> load(String name, Iterable<FileItem> source,
                                                       ImageLoaderOptions options) {
        Map<Integer, List<ByteBuffer>> byLabel = new HashMap<>();
        int batches = 0;
        try (ImageBatchLoader loader = ImageBatchLoader.of(name, source, options)) {
            for (Batch batch : loader) {
                try (batch) {
                    ByteBuffer all = batch.tensor().asByteBuffer();
                    int sampleBytes = all.remaining() / batch.size();
                    for (int i = 0; i < batch.size(); i++) {
                        ByteBuffer copy = ByteBuffer.allocate(sampleBytes).put(all.slice(i * sampleBytes, sampleBytes))
                            .flip();
                        byLabel.computeIfAbsent(loader.label(batch, i), k -> new ArrayList<>()).add(copy);
                    }
                }
                batches++;
            }
            assertThat(loader.failedImages()).isZero();
        }
        assertThat(batches).isPositive();
        return byLabel;
    }

    /** What a bare decoder writes for a file with a given epoch's seed. */
    private static ByteBuffer expected(SingleThreadImageDecoder decoder, ImageSpec spec, FileItem file, long epoch)
        throws Exception {
        byte[] bytes = Files.readAllBytes(file.path());
        UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes.length));
        src.putBytes(0, bytes);
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(spec.bytes()));
        long seed = SampleSeeds.of(RUN_SEED, epoch, SampleSeeds.keyId(file.key()));
        decoder.decode(src, 0, bytes.length, file.key(), spec, seed, dst, 0);
        ByteBuffer out = ByteBuffer.allocate(spec.bytes());
        dst.getBytes(0, out, spec.bytes());
        return out.flip();
    }

    @Test
    void shouldWriteEachImagesSeededCropIntoItsSlot() throws Exception {
        ImageLoaderOptions options = options();
        Map<Integer, List<ByteBuffer>> loaded = load("augment", EpochFiles.of(files, 3), options);
        Map<Integer, List<ByteBuffer>> eval = load("eval", files, options.withAugmentation(null, 0));

        assertThat(loaded).hasSize(files.size());
        int differFromEval = 0;
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            for (FileItem f : files) {
                assertThat(loaded.get(f.label())).as(f.key()).containsExactly(expected(decoder, options.imageSpec(),
                    f, 3));
                differFromEval += loaded.get(f.label()).get(0).equals(eval.get(f.label()).get(0)) ? 0 : 1;
            }
        }
        assertThat(differFromEval).as("samples unlike the center crop").isEqualTo(files.size());
    }

    @Test
    void shouldRepeatAnEpochsCropsAndChangeThemInTheNext() throws Exception {
        IndexedDataset<FileItem> dataset = new IndexedDataset<>() {
            @Override
            public long size() {
                return files.size();
            }

            @Override
            public FileItem get(long index) {
                return files.get((int) index);
            }
        };
        ImageLoaderOptions options = options();
        Map<Integer, List<ByteBuffer>> first = load("epochs-a", twoEpochs(dataset), options);
        Map<Integer, List<ByteBuffer>> again = load("epochs-b", twoEpochs(dataset), options);

        int changed = 0;
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            for (FileItem f : files) {
                ByteBuffer epoch0 = expected(decoder, options.imageSpec(), f, 0);
                ByteBuffer epoch1 = expected(decoder, options.imageSpec(), f, 1);
                // shuffled epochs in completion order: each file's two samples, in either order
                assertThat(first.get(f.label())).as(f.key()).containsExactlyInAnyOrder(epoch0, epoch1);
                assertThat(again.get(f.label())).as(f.key()).containsExactlyInAnyOrder(epoch0, epoch1);
                changed += epoch0.equals(epoch1) ? 0 : 1;
            }
        }
        assertThat(changed).as("files whose crop changed between epochs").isEqualTo(files.size());
    }

    private static EpochFiles twoEpochs(IndexedDataset<FileItem> dataset) {
        SampledSource<FileItem> source = SampledSource.of(dataset, new RankInfo(0, 1), 5, true, RemainderPolicy.DROP);
        return EpochFiles.continuous(EpochIterable.of(source), 2);
    }
}
