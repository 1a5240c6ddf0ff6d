package org.spdl4j.examples.loader;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.cuda.DeviceTransfer;
import org.spdl4j.cuda.HostDevice;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.audio.SampleTones;
import org.spdl4j.examples.classify.TarShardWriter;
import org.spdl4j.examples.training.ColorClassImages;
import org.spdl4j.examples.video.SampleClips;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.LoaderBuilder;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.AudioClipDecoder;
import org.spdl4j.media.AudioSpec;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.VideoClipDecoder;
import org.spdl4j.offheap.batch.Batch;

/**
 * The loader with real media, every combination: {folder, path list, tar shards, URL list from a loopback HTTP
 * server} x {evaluation, training transform} x {no transfer, host transfer} x {1, 3 epochs} for images (a folder of
 * colour-class JPEGs plus one corrupt file), plus video and audio folders: every cell delivers each good sample
 * exactly once per epoch, with its label; evaluation batches hold the class colour at the centre.
 */
class MediaLoaderMatrixTest {
    private static final int PER_CLASS = 3;
    private static final int GOOD = PER_CLASS * ColorClassImages.CLASSES.size();

    @TempDir
    static Path dir;
    static Path folder;
    static HttpServer server;

    enum Kind { FOLDER, PATH_LIST, TAR, URLS }

    @BeforeAll
    static void data() throws Exception {
        folder = ColorClassImages.generate(dir.resolve("images"), PER_CLASS, 64, 3);
        Files.write(folder.resolve("blue").resolve("corrupt.jpg"), new byte[] {(byte) 0xFF, (byte) 0xD8, 1, 2, 3});
        FolderDataset scanned = FolderDataset.scan(folder, SampleSource.IMAGE_EXTENSIONS);
        TarShardWriter.write(scanned, Files.createDirectories(dir.resolve("shards")), 5);
        StringBuilder paths = new StringBuilder();
        for (long i = 0; i < scanned.size(); i++) {
            paths.append(scanned.get(i).path()).append('\t').append(scanned.get(i).label()).append('\n');
        }
        Files.writeString(dir.resolve("paths.txt"), paths);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            byte[] body = Files.readAllBytes(folder.resolve(ex.getRequestURI().getPath().substring(1)));
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
        server.start();
        StringBuilder urls = new StringBuilder();
        for (long i = 0; i < scanned.size(); i++) {
            urls.append("http://127.0.0.1:").append(server.getAddress().getPort()).append('/')
                .append(folder.relativize(scanned.get(i).path())).append('\t').append(scanned.get(i).label())
                .append('\n');
        }
        Files.writeString(dir.resolve("urls.txt"), urls);
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    static SampleSource source(Kind kind) {
        return switch (kind) {
            case FOLDER -> SampleSource.folder(folder);
            case PATH_LIST -> SampleSource.list(dir.resolve("paths.txt"));
            case TAR -> SampleSource.tarShards(dir.resolve("shards"));
            case URLS -> SampleSource.list(dir.resolve("urls.txt"));
        };
    }

    static List<Arguments> cells() {
        List<Arguments> out = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (boolean training : new boolean[] {false, true}) {
                for (boolean transfer : new boolean[] {false, true}) {
                    for (int epochs : new int[] {1, 3}) {
                        out.add(Arguments.of(kind, training, transfer, epochs));
                    }
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} training={1} transfer={2} epochs={3}")
    @MethodSource("cells")
    void shouldDeliverEachImageOncePerEpoch(Kind kind, boolean training, boolean transfer, int epochs)
            throws Exception {
        ImageSlotDecoder decoder = training ? ImageSlotDecoder.training(32) : ImageSlotDecoder.evaluation(32, 32);
        LoaderBuilder<Batch> recipe = Loader.builder().name("matrix").source(source(kind)).decoder(decoder)
            .batchSize(5).epochs(epochs).seed(7).decodeConcurrency(2).readConcurrency(4);
        Map<Long, List<String>> keys = new HashMap<>();
        if (!transfer) {
            try (Loader<Batch> loader = recipe.build()) {
                for (LoadedBatch<Batch> batch : loader) {
                    try (batch) {
                        record(batch, keys);
                        if (!training) {
                            for (int i = 0; i < batch.size(); i++) {
                                assertCentreColour(batch, i);
                            }
                        }
                    }
                }
                assertThat(loader.failures()).isEqualTo(epochs);
            }
        } else {
            try (HostDevice device = new HostDevice();
                 Loader<DeviceBatch> loader = recipe.batchMemory(device.hostAllocator())
                     .transfer(DeviceTransfer.to(device, 2)).build()) {
                for (LoadedBatch<DeviceBatch> batch : loader) {
                    try (batch) {
                        batch.data().awaitReady();
                        assertThat(batch.data().spec().dim(0)).isEqualTo(batch.size());
                        assertThat(batch.data().spec().elementCount()).isEqualTo(batch.size() * 32L * 32 * 3);
                        record(batch, keys);
                    }
                }
                assertThat(loader.failures()).isEqualTo(epochs);
            }
        }
        assertThat(keys).hasSize(epochs);
        for (List<String> epoch : keys.values()) {
            assertThat(epoch).hasSize(GOOD).doesNotHaveDuplicates();
            assertThat(epoch).noneMatch(k -> k.contains("corrupt"));
        }
    }

    private static void record(LoadedBatch<?> batch, Map<Long, List<String>> keys) {
        for (int i = 0; i < batch.size(); i++) {
            assertThat(batch.label(i)).isBetween(0, ColorClassImages.CLASSES.size() - 1);
            keys.computeIfAbsent(batch.epoch(i), e -> new ArrayList<>()).add(batch.key(i));
        }
    }

    /** The class hues (blue, green, red, yellow) of ColorClassImages; the background covers most of each image. */
    private static final float[] HUES = {0.62f, 0.33f, 0.0f, 0.15f};

    /** The mean colour of the slot is nearest, in hue, to its label's class (distractor spots cover a third at most). */
    private static void assertCentreColour(LoadedBatch<Batch> batch, int i) {
        org.agrona.concurrent.UnsafeBuffer px = new org.agrona.concurrent.UnsafeBuffer(batch.data().sampleAddress(i),
            32 * 32 * 3);
        long r = 0;
        long g = 0;
        long b = 0;
        for (int p = 0; p < 32 * 32; p++) {
            r += px.getByte(3 * p) & 0xFF;
            g += px.getByte(3 * p + 1) & 0xFF;
            b += px.getByte(3 * p + 2) & 0xFF;
        }
        float hue = java.awt.Color.RGBtoHSB((int) (r / 1024), (int) (g / 1024), (int) (b / 1024), null)[0];
        int nearest = 0;
        for (int c = 1; c < HUES.length; c++) {
            if (hueDistance(hue, HUES[c]) < hueDistance(hue, HUES[nearest])) {
                nearest = c;
            }
        }
        assertThat(ColorClassImages.CLASSES.get(nearest)).as("mean hue %.2f of %s", hue, batch.key(i))
            .isEqualTo(ColorClassImages.CLASSES.get(batch.label(i)));
    }

    private static float hueDistance(float a, float b) {
        float d = Math.abs(a - b);
        return Math.min(d, 1 - d);
    }

    @Test
    void shouldLoadVideoClipsAndAudioClipsFromFolders() throws Exception {
        Path videos = dir.resolve("videos");
        SampleClips.ensure(videos, 5, 64, 48, 16, 8);
        Set<String> clips = new HashSet<>();
        try (Loader<Batch> loader = Loader.builder().name("clips")
                .source(SampleSource.folder(videos, SampleSource.VIDEO_EXTENSIONS))
                .decoder(VideoClipDecoder.of(4, ImageSpec.exact(32, 24, PixelFormat.RGB24))).batchSize(2).epochs(2)
                .build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    assertThat(batch.data().tensor().shape()).containsExactly(batch.size(), 4, 24, 32, 3);
                    for (int i = 0; i < batch.size(); i++) {
                        clips.add(batch.epoch(i) + ":" + batch.key(i));
                    }
                }
            }
            assertThat(loader.failures()).isZero();
        }
        assertThat(clips).hasSize(10);

        // the same clips as a URL list: each decoded from its bytes in memory (fetched, so no file to seek in)
        HttpServer clipServer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        clipServer.createContext("/", ex -> {
            byte[] body = Files.readAllBytes(videos.resolve(ex.getRequestURI().getPath().substring(1)));
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        clipServer.start();
        try {
            StringBuilder urls = new StringBuilder();
            try (var files = Files.list(videos)) {
                for (Path f : files.filter(f -> SampleSource.VIDEO_EXTENSIONS.stream()
                        .anyMatch(e -> f.getFileName().toString().endsWith("." + e))).sorted().toList()) {
                    urls.append("http://127.0.0.1:").append(clipServer.getAddress().getPort()).append('/')
                        .append(f.getFileName()).append('\n');
                }
            }
            Files.writeString(dir.resolve("clips.txt"), urls);
            Set<String> fetched = new HashSet<>();
            try (Loader<Batch> loader = Loader.builder().name("clip-urls").source(SampleSource.list(dir.resolve(
                    "clips.txt"))).decoder(VideoClipDecoder.of(4, ImageSpec.exact(32, 24, PixelFormat.RGB24)))
                    .batchSize(2).build()) {
                for (LoadedBatch<Batch> batch : loader) {
                    try (batch) {
                        assertThat(batch.data().tensor().shape()).containsExactly(batch.size(), 4, 24, 32, 3);
                        for (int i = 0; i < batch.size(); i++) {
                            fetched.add(batch.key(i));
                        }
                    }
                }
                assertThat(loader.failures()).isZero();
            }
            assertThat(fetched).hasSize(5).allMatch(k -> k.startsWith("http://127.0.0.1:"));
        } finally {
            clipServer.stop(0);
        }

        Path tones = dir.resolve("tones");
        SampleTones.ensure(tones, 5);
        Set<String> clipsOfAudio = new HashSet<>();
        try (Loader<Batch> loader = Loader.builder().name("tones")
                .source(SampleSource.folder(tones, SampleSource.AUDIO_EXTENSIONS))
                .decoder(AudioClipDecoder.of(new AudioSpec(16_000, 1, false, 8_000))).batchSize(2).epochs(2)
                .build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    assertThat(batch.data().tensor().shape()).containsExactly(batch.size(), 1, 8_000);
                    for (int i = 0; i < batch.size(); i++) {
                        clipsOfAudio.add(batch.epoch(i) + ":" + batch.key(i));
                    }
                }
            }
            assertThat(loader.failures()).isZero();
        }
        assertThat(clipsOfAudio).hasSize(10);
    }
}
