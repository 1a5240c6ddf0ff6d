package org.spdl4j.engine.source.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.CountingAllocator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;

class WebDatasetSampleIteratorTest {
    @TempDir
    Path dir;

    static byte[] payload(int sample, int size) {
        byte[] b = new byte[size];
        for (int j = 0; j < size; j++) {
            b[j] = (byte) ((sample * 7 + j) % 251);
        }
        return b;
    }

    private static WebDatasetSampleIterator open(Path shard, SampleAllocator alloc) throws IOException {
        return new WebDatasetSampleIterator(new TarStreamReader(shard.toString(), java.nio.channels.FileChannel.open(
                shard)), alloc);
    }

    private static WebDatasetSampleIterator openStream(String name, byte[] tar, SampleAllocator alloc) {
        return new WebDatasetSampleIterator(new TarStreamReader(name, Channels.newChannel(new ByteArrayInputStream(
                tar))), alloc);
    }

    private static boolean python3Available() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private Path pythonShard(String format, String prefix) throws Exception {
        Path shard = dir.resolve(format + ".tar");
        String script = String.join("\n",
                "import io, json, sys, tarfile",
                "def payload(i, n): return bytes((i * 7 + j) % 251 for j in range(n))",
                "with tarfile.open(sys.argv[1], 'w', format=tarfile." + format + ") as t:",
                "    for i in range(12):",
                "        key = '" + prefix + "' + '%04d' % i",
                "        for ext, data in (('jpg', payload(i, 100 + 997 * i)), ('cls', str(i % 3).encode()),",
                "                          ('json', json.dumps({'i': i}).encode())):",
                "            info = tarfile.TarInfo(key + '.' + ext)",
                "            info.size = len(data)",
                "            t.addfile(info, io.BytesIO(data))",
                "");
        Path py = dir.resolve("write.py");
        Files.writeString(py, script);
        Process p = new ProcessBuilder("python3", py.toString(), shard.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        return shard;
    }

    @Test
    void shouldReadAShardWrittenByPythonTarfileSampleBySample() throws Exception {
        Assumptions.assumeTrue(python3Available(), "python3 not found on PATH: skipping the tarfile interop test");
        String longDir = "train/" + "d".repeat(120) + "/"; // > 100 chars: PAX path, GNU 'L' name, ustar prefix
        for (String format : new String[] {"PAX_FORMAT", "GNU_FORMAT", "USTAR_FORMAT"}) {
            Path shard = pythonShard(format, longDir);
            CountingAllocator alloc = new CountingAllocator();
            List<String> keys = new ArrayList<>();
            try (WebDatasetSampleIterator it = open(shard, alloc)) {
                int i = 0;
                while (it.hasNext()) {
                    try (Sample s = it.next()) {
                        keys.add(s.key());
                        assertThat(s.key()).isEqualTo(longDir + "%04d".formatted(i));
                        assertThat(s.fields()).extracting(f -> f.name()).containsExactly("jpg", "cls", "json");
                        assertThat(s.field("jpg").toByteArray()).as(format).isEqualTo(payload(i, 100 + 997 * i));
                        assertThat(s.label()).isEqualTo(i % 3);
                        assertThat(s.text("json")).isEqualTo("{\"i\": " + i + "}");
                        assertThat(s.origin()).startsWith(shard.toString() + "@");
                    }
                    i++;
                }
            }
            assertThat(keys).as(format).hasSize(12);
            assertThat(alloc.outstanding()).isZero();
        }
    }

    @Test
    void shouldRejectMemberNamesThatEscapeTheArchive() {
        for (String bad : new String[] {"../evil.jpg", "a/../../evil.jpg", "/etc/passwd.txt", "C:/x.jpg",
            "ok/..\\evil.jpg"}) {
            byte[] tar = new TestTarWriter().add("0001.jpg", payload(1, 10)).add(bad, payload(2, 10)).finish();
            WebDatasetSampleIterator it = openStream("bad.tar", tar, SampleAllocator.HEAP);
            assertThat(it.next().key()).isEqualTo("0001"); // the sample before is kept
            assertThatThrownBy(it::hasNext).as(bad).isInstanceOf(TarFormatException.class)
                    .hasMessageContaining("bad.tar").hasMessageContaining("rejected");
            assertThat(it.hasNext()).isFalse();
        }
        byte[] link = new TestTarWriter().add("../x", new byte[0], (byte) '2').finish();
        assertThatThrownBy(() -> openStream("link.tar", link, SampleAllocator.HEAP).hasNext())
                .isInstanceOf(TarFormatException.class).hasMessageContaining("escapes");
    }

    /**
     * Closed after the sample before a rejected member was delivered (the error still pending), the iterator has
     * ended, as every closed {@code CloseableIterator} has: {@code hasNext()} is false, not the pending error.
     */
    @Test
    void shouldEndQuietlyWhenClosedWithAnErrorStillPending() {
        byte[] tar = new TestTarWriter().add("0001.jpg", payload(1, 10)).add("../evil.jpg", payload(2, 10)).finish();
        WebDatasetSampleIterator it = openStream("bad.tar", tar, SampleAllocator.HEAP);
        assertThat(it.next().key()).isEqualTo("0001");
        it.close();
        assertThat(it.hasNext()).isFalse();
        assertThat(it.skip(1)).isZero();
    }

    /** A member no buffer can be had for fails naming the shard and the member, with the allocator's reason. */
    @Test
    void shouldNameTheShardAndMemberWhenNoBufferFitsAMember() {
        byte[] tar = new TestTarWriter().add("k0.jpg", payload(0, 100)).add("k1.jpg", payload(1, 10_000)).finish();
        CountingAllocator alloc = new CountingAllocator();
        SampleAllocator small = new SampleAllocator() {
            @Override
            public java.nio.ByteBuffer allocate(int size) {
                if (size > 4096) {
                    throw new IllegalArgumentException("pool 'p': " + size + " B is larger than its largest slab");
                }
                return alloc.allocate(size);
            }

            @Override
            public void release(java.nio.ByteBuffer buffer) {
                alloc.release(buffer);
            }
        };
        WebDatasetSampleIterator it = openStream("shard-7.tar", tar, small);
        it.next().close();
        assertThatThrownBy(it::hasNext).hasMessageContaining("shard-7.tar").hasMessageContaining("k1.jpg")
                .hasMessageContaining("larger than its largest slab");
        assertThat(alloc.outstanding()).isZero();
    }

    /** A rejected member of the same sample (its key once cleaned) leaves the sample incomplete: not delivered. */
    @Test
    void shouldNotDeliverASampleWhoseOwnMemberWasRejected() {
        for (String bad : new String[] {"/0001.cls", ".//0001.cls"}) {
            byte[] tar = new TestTarWriter().add("0001.jpg", payload(1, 10)).add(bad, "1".getBytes(
                    StandardCharsets.US_ASCII)).finish();
            CountingAllocator alloc = new CountingAllocator();
            WebDatasetSampleIterator it = openStream("own.tar", tar, alloc);
            assertThatThrownBy(it::hasNext).as(bad).isInstanceOf(TarFormatException.class)
                    .hasMessageContaining("0001").hasMessageContaining("not delivered");
            assertThat(alloc.outstanding()).as(bad).isZero();
        }
    }

    @Test
    void shouldReportATruncatedShardWithItsOffsetAndKeepTheSamplesBefore() throws IOException {
        TestTarWriter w = new TestTarWriter();
        for (int i = 0; i < 5; i++) {
            w.add("%04d.jpg".formatted(i), payload(i, 1000)).add("%04d.cls".formatted(i), "1".getBytes(
                    StandardCharsets.US_ASCII));
        }
        byte[] full = w.finish();
        // each sample = (512 + 1024) + (512 + 512) = 2560 bytes; cut inside sample 3's jpg data
        int cut = 3 * 2560 + 512 + 300;
        for (boolean seekable : new boolean[] {true, false}) {
            CountingAllocator alloc = new CountingAllocator();
            Path shard = dir.resolve("cut.tar");
            Files.write(shard, Arrays.copyOf(full, cut));
            WebDatasetSampleIterator it = seekable ? open(shard, alloc) : openStream(shard.toString(), Arrays.copyOf(
                    full, cut), alloc);
            List<String> got = new ArrayList<>();
            TarFormatException error = null;
            try {
                while (it.hasNext()) {
                    try (Sample s = it.next()) {
                        got.add(s.key());
                    }
                }
            } catch (TarFormatException e) {
                error = e;
            }
            assertThat(got).containsExactly("0000", "0001", "0002");
            assertThat(error).isNotNull();
            assertThat(error.shard()).isEqualTo(shard.toString());
            assertThat(error.offset()).isEqualTo(cut);
            assertThat(error).hasMessageContaining("truncated").hasMessageContaining("'0003'")
                    .hasMessageContaining("offset " + cut);
            assertThat(alloc.outstanding()).as("partial sample released").isZero();
        }
        // cut exactly at a member boundary (no end-of-archive block): still an error, after all whole samples
        WebDatasetSampleIterator it = openStream("boundary.tar", Arrays.copyOf(full, 5 * 2560), SampleAllocator.HEAP);
        List<String> got = new ArrayList<>();
        assertThatThrownBy(() -> it.forEachRemaining(s -> got.add(s.key()))).isInstanceOf(TarFormatException.class)
                .hasMessageContaining("end-of-archive");
        assertThat(got).containsExactly("0000", "0001", "0002", "0003");
    }

    /** {@code tar -cf shard.tar -C dir .} writes the root {@code ./} first: skipped, like any directory. */
    @Test
    void shouldReadAShardWhoseFirstMemberIsTheArchiveRoot() {
        byte[] tar = new TestTarWriter().add("./", new byte[0], (byte) '5')
                .add("./0001.jpg", payload(1, 10)).add("./0001.cls", "3".getBytes(StandardCharsets.US_ASCII))
                .add("./0002.jpg", payload(2, 10)).finish();
        List<String> keys = new ArrayList<>();
        openStream("rooted.tar", tar, SampleAllocator.HEAP).forEachRemaining(s -> keys.add(s.key()));
        assertThat(keys).containsExactly("0001", "0002");
    }

    /** Members that are not {@code <key>.<ext>} (a README, macOS's AppleDouble files) are skipped, not fatal. */
    @Test
    void shouldSkipMembersWithoutAKeyAndExtension() {
        byte[] tar = new TestTarWriter().add("README", "about".getBytes(StandardCharsets.US_ASCII))
                .add("0001.jpg", payload(1, 10)).add("._0001.jpg", payload(9, 4))
                .add("0002.jpg", payload(2, 10)).finish();
        List<String> keys = new ArrayList<>();
        openStream("mac.tar", tar, SampleAllocator.HEAP).forEachRemaining(s -> keys.add(s.key()));
        assertThat(keys).containsExactly("0001", "0002");
    }

    @Test
    void shouldRejectACorruptHeader() {
        byte[] tar = new TestTarWriter().add("0001.jpg", payload(1, 10)).finish();
        tar[5] ^= 0x55;
        assertThatThrownBy(() -> openStream("corrupt.tar", tar, SampleAllocator.HEAP).hasNext())
                .isInstanceOf(TarFormatException.class).hasMessageContaining("checksum")
                .hasMessageContaining("offset 0");
    }

    /**
     * A PAX size describes the member, not a GNU long name between the PAX header and the member (writers that mix
     * both formats): the long name's own size frames it. GNU tar and Python's tarfile read this archive alike.
     */
    @Test
    void shouldFrameAGnuLongNameAfterAPaxHeaderByItsOwnSize() {
        String longName = "train/" + "d".repeat(600) + "/0001.jpg";
        byte[] tar = new TestTarWriter()
                .add("PaxHeaders/0001.jpg", "10 size=5\n".getBytes(StandardCharsets.US_ASCII), (byte) 'x')
                .add("././@LongLink", (longName + "\0").getBytes(StandardCharsets.UTF_8), (byte) 'L')
                .add("train/ddd/0001.jpg", "hello".getBytes(StandardCharsets.US_ASCII)).finish();

        WebDatasetSampleIterator it = openStream("mixed.tar", tar, SampleAllocator.HEAP);
        Sample s = it.next();

        assertThat(s.key()).isEqualTo(longName.substring(0, longName.length() - ".jpg".length()));
        assertThat(s.fields()).singleElement().satisfies(f -> assertThat(f.toByteArray()).asString(StandardCharsets.US_ASCII).isEqualTo("hello"));
        s.close();
        assertThat(it.hasNext()).isFalse();
    }

    /** An empty PAX value deletes the keyword (POSIX): the member keeps its ustar name. */
    @Test
    void shouldReadAnEmptyPaxPathAsNoPath() {
        String record = "8 path=\n"; // 8 bytes: "8 path=" and the newline
        byte[] tar = new TestTarWriter().add("PaxHeaders/k", record.getBytes(StandardCharsets.US_ASCII), (byte) 'x')
                .add("k.jpg", payload(1, 10)).finish();
        WebDatasetSampleIterator it = openStream("empty-pax.tar", tar, SampleAllocator.HEAP);
        try (Sample s = it.next()) {
            assertThat(s.key()).isEqualTo("k");
            assertThat(s.field("jpg").toByteArray()).isEqualTo(payload(1, 10));
        }
        assertThat(it.hasNext()).isFalse();
    }

    /**
     * Crafted PAX headers fail as {@link TarFormatException}s naming the shard: a record whose length leaves no room
     * for its own text, and a size so large that size + padding (and every offset after it) would wrap.
     */
    @Test
    void shouldRejectCraftedPaxRecordsByName() {
        byte[] shortRecord = new TestTarWriter().add("PaxHeaders/0001", "2 ".getBytes(StandardCharsets.US_ASCII),
                (byte) 'x').add("0001.jpg", payload(1, 10)).finish();
        assertThatThrownBy(() -> openStream("short-pax.tar", shortRecord, SampleAllocator.HEAP).hasNext())
                .isInstanceOf(TarFormatException.class).hasMessageContaining("short-pax.tar")
                .hasMessageContaining("PAX record");
        String huge = "28 size=9223372036854775000\n";
        byte[] hugeSize = new TestTarWriter().add("PaxHeaders/0001", huge.getBytes(StandardCharsets.US_ASCII),
                (byte) 'x').add("0001.jpg", payload(1, 10)).add("0002.jpg", payload(2, 10)).finish();
        assertThatThrownBy(() -> openStream("huge.tar", hugeSize, SampleAllocator.HEAP).forEachRemaining(x -> { }))
                .isInstanceOf(TarFormatException.class).hasMessageContaining("huge.tar")
                .hasMessageContaining("beyond any real archive");
    }

    @Test
    void shouldSkipSamplesReadingHeadersOnly() {
        TestTarWriter w = new TestTarWriter();
        for (int i = 0; i < 6; i++) {
            w.add("k%d.a".formatted(i), payload(i, 700)).add("k%d.b".formatted(i), payload(i, 3));
        }
        byte[] tar = w.finish();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            CountingAllocator alloc = new CountingAllocator();
            WebDatasetSampleIterator it = openStream("s.tar", tar, alloc);
            assertThat(it.skip(4)).isEqualTo(4);
            assertThat(alloc.outstanding()).isZero();
            assertThat(it.next().key()).isEqualTo("k4");
            assertThat(it.skip(5)).isEqualTo(1);
            assertThat(it.hasNext()).isFalse();
        });
    }

    @Test
    void shouldRejectARepeatedField() {
        byte[] noExt = new TestTarWriter().add("README", payload(0, 3)).finish();
        assertThat(openStream("n.tar", noExt, SampleAllocator.HEAP).hasNext()).as("a README alone: no sample")
                .isFalse();
        byte[] twice = new TestTarWriter().add("a.jpg", payload(0, 3)).add("a.jpg", payload(0, 3)).finish();
        CountingAllocator alloc = new CountingAllocator();
        assertThatThrownBy(() -> openStream("t.tar", twice, alloc).hasNext()).hasMessageContaining("repeats");
        assertThat(alloc.outstanding()).isZero();
    }
}
