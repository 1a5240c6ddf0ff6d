package org.spdl4j.offheap.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.testing.PoolLeakExtension;

@ExtendWith(PoolLeakExtension.class)
@Timeout(60)
class NpyTest {
    private final BufferPool pool = BufferPool.open(PoolConfig.builder("npy").sizeClass(64 * 1024, 8)
            .acquireTimeout(java.time.Duration.ofSeconds(1)).build());
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        pool.close();
    }

    private Tensor randomTensor(DType dtype, long... shape) {
        long n = dtype.byteSize();
        for (long s : shape) {
            n *= s;
        }
        final Lease lease = pool.acquire((int) n);
        final SplittableRandom random = new SplittableRandom(n);
        for (int i = 0; i < n; i++) {
            lease.buffer().putByte(i, (byte) random.nextInt());
        }
        if (dtype == DType.F16 || dtype == DType.F32 || dtype == DType.F64) {
            for (int i = 0; i < n; i += dtype.byteSize()) { // real numbers, no NaN payload surprises
                switch (dtype) {
                    case F16 -> lease.buffer().putShort(i, Float.floatToFloat16(random.nextInt(-1000, 1000) / 8f));
                    case F32 -> lease.buffer().putFloat(i, (float) random.nextDouble(-1, 1));
                    default -> lease.buffer().putDouble(i, random.nextDouble(-1, 1));
                }
            }
        }
        return Tensor.contiguous(lease, 0, dtype, shape);
    }

    private static byte[] bytes(Tensor t) {
        final ByteBuffer b = t.asByteBuffer();
        final byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Test
    void shouldWriteV1HeaderAlignedTo64() {
        final byte[] h = NpyFormat.header(DType.F32, new long[] {2, 3});
        assertThat(h.length % 64).isZero();
        final String dict = new String(h, 10, h.length - 10, StandardCharsets.US_ASCII);
        assertThat(dict).startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }").endsWith("\n");
        assertThat(new String(NpyFormat.header(DType.U8, new long[] {5}), StandardCharsets.US_ASCII))
                .contains("'shape': (5,)");
        assertThat(new String(NpyFormat.header(DType.U8, new long[0]), StandardCharsets.US_ASCII))
                .contains("'shape': ()");
    }

    @Test
    void shouldReadBackWhatItWrote() throws IOException {
        for (DType dtype : DType.values()) {
            final Tensor written = randomTensor(dtype, 3, 4, 5);
            final Path file = dir.resolve(dtype + ".npy");
            NpyWriter.write(written, file);
            final Tensor read = NpyReader.read(file, pool);
            assertThat(read.dtype()).isEqualTo(dtype);
            assertThat(read.shape()).containsExactly(3, 4, 5);
            assertThat(bytes(read)).isEqualTo(bytes(written));
            read.lease().release();
            written.lease().release();
        }
    }

    @Test
    void shouldRejectTruncatedAndForeignFiles() throws IOException {
        final Tensor t = randomTensor(DType.I32, 10);
        final Path file = dir.resolve("t.npy");
        NpyWriter.write(t, file);
        t.lease().release();
        final byte[] all = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(all, all.length - 3));
        assertThatThrownBy(() -> NpyReader.read(file, pool)).hasMessageContaining("truncated")
                .hasMessageContaining("3 B missing");
        assertThat(pool.inUse()).as("lease released on the failure path").isZero();
        Files.writeString(file, "not numpy at all, long enough to hold a header");
        assertThatThrownBy(() -> NpyReader.read(file, pool)).hasMessageContaining("bad magic");
    }

    /**
     * A crafted header whose element count wraps a {@code long} ((2^62 + 1) x 4 = 4 mod 2^64) must be refused by
     * name, not read as a 4-byte array whose shape reaches far past its lease; so must an extent that is no number.
     */
    @Test
    void shouldRefuseShapesThatOverflowAndExtentsThatAreNoNumbers() throws IOException {
        final Path wrapped = dir.resolve("wrapped.npy");
        Files.write(wrapped, npy("{'descr': '|u1', 'fortran_order': False, 'shape': (4611686018427387905, 4), }",
                new byte[4]));
        assertThatThrownBy(() -> NpyReader.read(wrapped, pool)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(wrapped.toString()).hasMessageContaining("overflows");
        final Path word = dir.resolve("word.npy");
        Files.write(word, npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, x), }", new byte[12]));
        assertThatThrownBy(() -> NpyReader.read(word, pool)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(word.toString()).hasMessageContaining("not a 64-bit integer");
        assertThat(pool.inUse()).as("nothing leased").isZero();
    }

    /** A version 1.0 .npy file: magic, header length, the dict padded with spaces to 64 bytes, then the data. */
    private static byte[] npy(String dict, byte[] data) {
        final StringBuilder header = new StringBuilder(dict);
        while ((10 + header.length() + 1) % 64 != 0) {
            header.append(' ');
        }
        header.append('\n');
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(10 + header.length() + data.length)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0)
                .putShort((short) header.length()).put(header.toString().getBytes(StandardCharsets.US_ASCII)).put(data);
        return b.array();
    }

    private static Boolean numpy;

    private static synchronized boolean numpyAvailable() {
        if (numpy == null) {
            numpy = probeNumpy();
        }
        return numpy;
    }

    private static boolean probeNumpy() {
        try {
            final Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static List<String> python(String script, List<Path> args) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of("python3", "-c", script));
        args.forEach(a -> command.add(a.toString()));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("python3 finished").isTrue();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("python3 output: %s", out).isZero();
        return out.lines().toList();
    }

    @Test
    void shouldBeReadByNumpyWithSameShapeDtypeAndBytes() throws Exception {
        Assumptions.assumeTrue(numpyAvailable(), "python3 with numpy not found: skipping the NumPy interop check "
                + "(apt-get install python3-numpy to run it)");
        final DType[] dtypes = DType.values();
        final Tensor[] tensors = new Tensor[dtypes.length];
        final List<Path> files = new ArrayList<>();
        for (int i = 0; i < dtypes.length; i++) {
            tensors[i] = randomTensor(dtypes[i], 2, 3, 7);
            files.add(dir.resolve("j-" + dtypes[i] + ".npy"));
            NpyWriter.write(tensors[i], files.get(i));
        }
        final List<String> out = python("import sys, numpy as np\nfor f in sys.argv[1:]:\n a = np.load(f)\n"
                + " print(a.dtype.str); print(','.join(map(str, a.shape))); print(a.tobytes().hex())", files);
        for (int i = 0; i < dtypes.length; i++) {
            assertThat(out.get(3 * i)).isEqualTo(dtypes[i].npyDescr());
            assertThat(out.get(3 * i + 1)).isEqualTo("2,3,7");
            assertThat(out.get(3 * i + 2)).as("bytes of %s", dtypes[i]).isEqualTo(HexFormat.of().formatHex(bytes(tensors[i])));
            tensors[i].lease().release();
        }
    }

    @Test
    void shouldReadWhatNumpyWrote() throws Exception {
        Assumptions.assumeTrue(numpyAvailable(), "python3 with numpy not found: skipping the NumPy interop check");
        final Path file = dir.resolve("np.npy");
        python("import sys, numpy as np; np.save(sys.argv[1], np.arange(24, dtype='<f4').reshape(2, 3, 4) / 4)", List.of(file));
        final Tensor t = NpyReader.read(file, pool);
        assertThat(t.dtype()).isEqualTo(DType.F32);
        assertThat(t.shape()).containsExactly(2, 3, 4);
        for (int i = 0; i < 24; i++) {
            assertThat(t.asFloatBuffer().get(i)).isEqualTo(i / 4f);
        }
        t.lease().release();
    }
}
