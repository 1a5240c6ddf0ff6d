package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PerThreadImageDecodersTest {
    @Test
    @Timeout(60)
    void shouldDecodeIdenticallyFromManyThreadsAndFreeEverythingOnClose() throws Exception {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(640, 480, 41), 0.9f, false);
        final UnsafeBuffer src = TestImages.offHeap(jpeg);
        final ImageSpec spec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
        final byte[] expected;
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
            d.decode(src, 0, jpeg.length, "ref", spec, dst, 0);
            expected = TestImages.bytes(dst, spec.bytes());
        }
        final int threads = 4;
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT)) {
            final List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    // One batch-like buffer per task; each image lands in its own slot.
                    final UnsafeBuffer batch = TestImages.nativeBuffer(spec.bytes() * 8);
                    boolean same = true;
                    for (int i = 0; i < 8; i++) {
                        decoders.decode(src, 0, jpeg.length, "img" + i, spec, batch, i * spec.bytes());
                    }
                    for (int i = 0; i < 8; i++) {
                        final byte[] slot = new byte[spec.bytes()];
                        batch.getBytes(i * spec.bytes(), slot);
                        same &= java.util.Arrays.equals(slot, expected);
                    }
                    return same;
                }));
            }
            for (final Future<Boolean> f : results) {
                assertThat(f.get()).isTrue();
            }
            assertThat(NativeResourceCounter.outstanding(NativeResourceCounter.Kind.CODEC_CONTEXT))
                    .isBetween(1L, (long) threads);
        } finally {
            pool.shutdownNow();
        }
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    /**
     * A pool whose threads come and go (keep-alive expiry, a cached pool) must not grow one decoder per thread it
     * ever had: a new thread takes over the decoder of one that has ended; live threads keep their own.
     */
    @Test
    @Timeout(60)
    void shouldGiveAnEndedThreadsDecoderToTheNextThread() throws Exception {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(320, 240, 7), 0.9f, false);
        final UnsafeBuffer src = TestImages.offHeap(jpeg);
        final ImageSpec spec = ImageSpec.centerCrop(128, 112, PixelFormat.RGB24);
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT)) {
            // A decode that throws on a thread (a decoder taken over but still owned by its ended thread) must fail
            // the test: the decoder count alone would still read 1.
            final List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            final Runnable decodeOnce = () -> {
                try {
                    final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
                    decoders.decode(src, 0, jpeg.length, "img", spec, dst, 0);
                } catch (final Throwable e) {
                    failures.add(e);
                }
            };
            for (int i = 0; i < 5; i++) {
                final Thread t = new Thread(decodeOnce, "short-lived-" + i);
                t.start();
                t.join();
            }
            assertThat(failures).as("decodes on the short-lived threads").isEmpty();
            assertThat(decoders.decoderCount()).as("five threads one after another").isEqualTo(1);
            final java.util.concurrent.CountDownLatch decoded = new java.util.concurrent.CountDownLatch(2);
            final java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
            final List<Thread> live = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                final Thread t = new Thread(() -> {
                    decodeOnce.run();
                    decoded.countDown();
                    try {
                        finish.await();
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "live-" + i);
                t.start();
                live.add(t);
            }
            try {
                assertThat(decoded.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("both live threads decoded")
                        .isTrue();
                assertThat(failures).as("decodes on the live threads").isEmpty();
                assertThat(decoders.decoderCount()).as("two live threads, one ended one's decoder reused")
                        .isEqualTo(2);
            } finally {
                finish.countDown(); // also when an assertion failed: no thread of this test outlives it
                for (final Thread t : live) {
                    t.join();
                }
            }
        }
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    @Timeout(60)
    void shouldLendDecodersToVirtualThreadsInsteadOfOpeningOnePerThread() throws Exception {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(320, 240, 43), 0.9f, false);
        final UnsafeBuffer src = TestImages.offHeap(jpeg);
        final ImageSpec spec = ImageSpec.centerCrop(128, 112, PixelFormat.RGB24);
        final byte[] expected;
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
            d.decode(src, 0, jpeg.length, "ref", spec, dst, 0);
            expected = TestImages.bytes(dst, spec.bytes());
        }
        final int tasks = 300;
        final int atOnce = 3;
        final java.util.concurrent.Semaphore permits = new java.util.concurrent.Semaphore(atOnce);
        final java.util.concurrent.atomic.AtomicInteger same = new java.util.concurrent.atomic.AtomicInteger();
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT);
             ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            final List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                done.add(virtual.submit(() -> {
                    permits.acquireUninterruptibly();
                    try {
                        final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
                        decoders.decode(src, 0, jpeg.length, "virtual", spec, dst, 0);
                        if (java.util.Arrays.equals(TestImages.bytes(dst, spec.bytes()), expected)) {
                            same.incrementAndGet();
                        }
                    } finally {
                        permits.release();
                    }
                }));
            }
            for (final Future<?> f : done) {
                f.get();
            }
            assertThat(same.get()).as("virtual-thread decodes equal to the reference").isEqualTo(tasks);
            assertThat(decoders.decoderCount()).as("decoders opened for %d virtual threads, %d at once", tasks,
                    atOnce).isBetween(1, atOnce);
            assertThatThrownBy(() -> virtual.submit(decoders::current).get())
                    .hasCauseInstanceOf(IllegalStateException.class).hasMessageContaining("virtual thread");
        }
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    @Timeout(10)
    void shouldRefuseUseOfASingleThreadDecoderFromAnotherThread() throws Exception {
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final Throwable[] thrown = new Throwable[1];
            final Thread other = new Thread(() -> {
                try {
                    d.decode(0L, 1L, "x", ImageSpec.exact(1, 1, PixelFormat.RGB24), 0L, 3L);
                } catch (final Throwable t) {
                    thrown[0] = t;
                }
            });
            other.start();
            other.join();
            assertThat(thrown[0]).isInstanceOf(IllegalStateException.class).hasMessageContaining("owned by");
        }
    }

    /**
     * close() racing decode calls (a misuse, but one a loader's shutdown bug can cause) neither frees FFmpeg contexts
     * under a running decode nor leaks them: calls in progress finish, later ones fail with IllegalStateException,
     * and every context is freed once they have returned.
     */
    @Test
    @Timeout(60)
    void shouldWaitForDecodesInProgressWhenClosedUnderThem() throws Exception {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(1280, 960, 43), 0.9f, false);
        final UnsafeBuffer src = TestImages.offHeap(jpeg);
        final ImageSpec spec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
        final PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT);
        final java.util.concurrent.atomic.AtomicInteger decoded = new java.util.concurrent.atomic.AtomicInteger();
        final List<Throwable> endings = java.util.Collections.synchronizedList(new ArrayList<>());
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
                try {
                    while (true) {
                        decoders.decode(src, 0, jpeg.length, "busy", spec, dst, 0);
                        decoded.incrementAndGet();
                    }
                } catch (Throwable e) {
                    endings.add(e);
                }
            }));
        }
        final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (decoded.get() < 6 && System.nanoTime() < deadline) {
            Thread.sleep(5); // every thread decoding by now
        }
        decoders.close();
        for (final Thread t : threads) {
            t.join(20_000);
        }
        assertThat(endings).hasSize(3).allMatch(e -> e instanceof IllegalStateException
                && e.getMessage().contains("closed"));
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    /**
     * close() racing threads that are setting up their decoder with current() (a first call creates it, or takes
     * over an ended thread's): every decoder created is freed, none after close() has returned, and every decoder a
     * thread got refuses to decode afterwards.
     */
    @Test
    @Timeout(120)
    void shouldFreeEveryDecoderWhenClosedWhileThreadsSetUpTheirs() throws Exception {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(32, 24, 44), 0.9f, false);
        final UnsafeBuffer src = TestImages.offHeap(jpeg);
        final ImageSpec spec = ImageSpec.exact(16, 12, PixelFormat.RGB24);
        final int threads = 6;
        final java.util.Random random = new java.util.Random(44);
        for (int round = 0; round < 300; round++) {
            final PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT);
            final Thread ended = Thread.ofPlatform().start(() -> decoders.current()); // its decoder is taken over
            ended.join();
            final java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
            final java.util.concurrent.atomic.AtomicInteger decodedAfterClose =
                    new java.util.concurrent.atomic.AtomicInteger();
            final List<Throwable> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
            final List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(Thread.ofPlatform().start(() -> {
                    final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
                    SingleThreadImageDecoder mine = null;
                    try {
                        start.await();
                        mine = decoders.current();
                        decoders.decode(src, 0, jpeg.length, "racing", spec, dst, 0);
                    } catch (final IllegalStateException e) {
                        // closed first: expected for some threads
                    } catch (final Throwable e) {
                        unexpected.add(e);
                    }
                    try {
                        closed.await();
                        if (mine != null) {
                            mine.decode(src, 0, jpeg.length, "after close", spec, dst, 0);
                            decodedAfterClose.incrementAndGet();
                        }
                    } catch (final IllegalStateException e) {
                        // the decoder was freed by close(): expected
                    } catch (final Throwable e) {
                        unexpected.add(e);
                    }
                }));
            }
            start.countDown();
            final long spinUntil = System.nanoTime() + random.nextInt(400_000);
            while (System.nanoTime() < spinUntil) {
                Thread.onSpinWait();
            }
            decoders.close();
            closed.countDown();
            for (final Thread t : workers) {
                t.join();
            }
            assertThat(unexpected).as("round %d", round).isEmpty();
            assertThat(decodedAfterClose.get()).as("round %d: decoders still usable after close", round).isZero();
            assertThat(NativeResourceCounter.outstanding()).as("round %d: %s", round, NativeResourceCounter.describe())
                    .isZero();
        }
    }

    /** The warm-up image (16x16, 659 bytes) is decoded under its own limits: stricter ones still construct. */
    @Test
    void shouldConstructUnderLimitsStricterThanTheWarmUpImageAndStillApplyThem() {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(16, 16, 3), 0.9f, false);
        final UnsafeBuffer src = TestImages.offHeap(jpeg);
        final ImageSpec spec = ImageSpec.exact(8, 8, PixelFormat.RGB24);
        final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(new MediaLimits(200, 10, 10, 1 << 20))) {
            assertThatThrownBy(() -> decoders.decode(src, 0, jpeg.length, "16x16", spec, dst, 0))
                    .isInstanceOf(MediaException.class).hasMessageContaining("exceeds the limit of 200 pixels");
        }
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(new MediaLimits(1 << 20, 10, 10, 100))) {
            assertThatThrownBy(() -> decoders.decode(src, 0, jpeg.length, "16x16", spec, dst, 0))
                    .isInstanceOf(MediaException.class).hasMessageContaining("exceeds the limit of 100");
        }
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    void shouldRejectUseAfterClose() {
        final PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT);
        decoders.current();
        decoders.close();
        assertThatThrownBy(decoders::current).isInstanceOf(IllegalStateException.class);
        assertThat(NativeResourceCounter.outstanding()).isZero();
    }
}
