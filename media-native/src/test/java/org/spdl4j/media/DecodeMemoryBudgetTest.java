package org.spdl4j.media;

import org.spdl4j.media.testing.TestPngs;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One decode memory budget shared by every decode thread: reservations over the budget wait their turn, an image
 * larger than the whole budget fails at once with its size and the budget, a wait is bounded and interruptible, and
 * every path gives the bytes back.
 */
class DecodeMemoryBudgetTest {
    private static final ImageSpec SPEC = ImageSpec.exact(32, 32, PixelFormat.RGB24);
    /** A 512x512 RGB PNG's reservation: rows of 1536 bytes (64-aligned) x 512. */
    private static final long PNG_512_BYTES = 1536L * 512;

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    @Timeout(60)
    void shouldLetNoMoreReservationsThanFitHoldAtOnce() throws Exception {
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(250);
        final AtomicInteger holding = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            final List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        budget.reserve(100, "item", "an item");
                        try {
                            most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                            Thread.sleep(2);
                        } catch (final InterruptedException e) {
                            throw new IllegalStateException(e);
                        } finally {
                            holding.decrementAndGet();
                            budget.release(100);
                        }
                    }
                    return null;
                }));
            }
            for (final Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(most.get()).as("two reservations of 100 fit in 250, a third never").isEqualTo(2);
        assertThat(budget.peakInUse()).isEqualTo(200);
        assertThat(budget.inUse()).isZero();
    }

    @Test
    @Timeout(120)
    void shouldDecodeOneImageAtATimeWhenTwoDoNotFit() throws Exception {
        final byte[] png = TestPngs.uniform(512, 512, 2, 90);
        assertThat(peakDecoding(png, DecodeMemoryBudget.ofBytes(PNG_512_BYTES * 3 / 2)))
                .as("four threads, room for one image").isEqualTo(PNG_512_BYTES);
        assertThat(peakDecoding(png, DecodeMemoryBudget.ofBytes(PNG_512_BYTES * 8)))
                .as("four threads, room for all: they overlap").isGreaterThan(PNG_512_BYTES);
    }

    /** Decodes {@code png} 40 times on each of 4 threads sharing one budget; returns the budget's peak. */
    private static long peakDecoding(final byte[] png, final DecodeMemoryBudget budget) throws Exception {
        final ExecutorService pool = Executors.newFixedThreadPool(4);
        final UnsafeBuffer src = TestImages.offHeap(png);
        final CountDownLatch start = new CountDownLatch(1);
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT, budget)) {
            final List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(pool.submit(() -> {
                    final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
                    start.await();
                    for (int i = 0; i < 40; i++) {
                        decoders.decode(src, 0, png.length, "uniform.png", SPEC, dst, 0);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (final Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }
        assertThat(budget.inUse()).isZero();
        return budget.peakInUse();
    }

    @Test
    void shouldRefuseAnImageLargerThanTheWholeBudgetAtOnce() {
        final byte[] png = TestPngs.uniform(1024, 1024, 2, 200);
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(1 << 20, Duration.ofSeconds(30));
        final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
        final long t0 = System.nanoTime();
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true, budget)) {
            assertThatThrownBy(() -> decoder.decode(TestImages.offHeap(png), 0, png.length, "huge.png", SPEC, dst, 0))
                    .isInstanceOf(MediaException.class)
                    .hasMessageStartingWith("huge.png: a 1024x1024 PNG needs 3.0 MiB (3145728 bytes) to decode,"
                            + " more than the whole decode memory budget of 1.0 MiB")
                    .hasMessageContaining("-Dspdl4j.media.decodeMemoryBytes=");
        }
        assertThat(System.nanoTime() - t0).as("no wait").isLessThan(TimeUnit.SECONDS.toNanos(10));
        assertThat(budget.inUse()).isZero();
    }

    @Test
    @Timeout(30)
    void shouldFailAfterTheLongestWaitNamingTheBudget() {
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(1000, Duration.ofMillis(200));
        budget.reserve(800, "first", "the first image");
        try {
            final long t0 = System.nanoTime();
            assertThatThrownBy(() -> budget.reserve(300, "second.png", "a 10x10 PNG"))
                    .isInstanceOf(MediaException.class)
                    .hasMessageContaining("second.png: a 10x10 PNG needs")
                    .hasMessageMatching("(?s).*waited \\d+ ms for the decode memory budget \\(.* of 0\\.0 MiB"
                            + " \\(1000 bytes\\) in use\\), its longest wait; raise the budget.*")
                    .hasMessageContaining("spdl4j.media.decodeMemoryBytes");
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        } finally {
            budget.release(800);
        }
        assertThat(budget.inUse()).isZero();
        budget.reserve(1000, "third", "the whole budget"); // the failed waiter left no trace in the queue
        budget.release(1000);
    }

    @Test
    @Timeout(30)
    void shouldGiveUpAtTheCallersDeadline() {
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(1000, Duration.ofSeconds(60));
        budget.reserve(1000, "holder", "everything");
        try {
            final long t0 = System.nanoTime();
            assertThatThrownBy(() -> budget.reserve(10, "late.png", "a 3x3 PNG",
                    t0 + TimeUnit.MILLISECONDS.toNanos(150)))
                    .isInstanceOf(MediaException.class)
                    .hasMessageContaining("late.png: a 3x3 PNG needs")
                    .hasMessageContaining("until its decode deadline; raise the decode timeout");
            assertThat(System.nanoTime() - t0).as("the deadline, not the 60 s wait")
                    .isLessThan(TimeUnit.SECONDS.toNanos(10));
        } finally {
            budget.release(1000);
        }
    }

    @Test
    @Timeout(60)
    void shouldPassASamplesDeadlineFromTheSlotDecoderToTheBudget() {
        final byte[] png = TestPngs.uniform(256, 256, 2, 10);
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(1 << 20, Duration.ofSeconds(60));
        final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
        try (ImageSlotDecoder decoder = ImageSlotDecoder.of(SPEC, MediaLimits.DEFAULT, budget)) {
            budget.reserve(1 << 20, "holder", "everything");
            try {
                final TestSample sample = TestSample.inMemory("late.png", png, 0);
                final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                final org.spdl4j.offheap.batch.EncodedSample withDeadline = new org.spdl4j.offheap.batch.EncodedSample() {
                    @Override
                    public long address() {
                        return sample.address();
                    }

                    @Override
                    public int length() {
                        return sample.length();
                    }

                    @Override
                    public String key() {
                        return sample.key();
                    }

                    @Override
                    public long seed() {
                        return 0;
                    }

                    @Override
                    public java.nio.file.Path path() {
                        return null;
                    }

                    @Override
                    public long deadlineNanos() {
                        return deadline;
                    }
                };
                final long t0 = System.nanoTime();
                assertThatThrownBy(() -> decoder.decode(withDeadline, dst.addressOffset(), SPEC.bytes()))
                        .isInstanceOf(MediaException.class).hasMessageContaining("until its decode deadline");
                assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(10));
            } finally {
                budget.release(1 << 20);
            }
            decoder.decode(TestSample.inMemory("on-time.png", png, 0), dst.addressOffset(), SPEC.bytes());
        }
        assertThat(budget.inUse()).isZero();
    }

    @Test
    @Timeout(30)
    void shouldStopWaitingWhenInterrupted() throws Exception {
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(1000);
        budget.reserve(1000, "holder", "everything");
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        final Thread waiter = new Thread(() -> {
            try {
                budget.reserve(10, "waiter.jpg", "a small JPEG");
            } catch (final MediaException e) {
                failure.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        waiter.start();
        while (waiter.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(failure.get()).isInstanceOf(MediaException.class)
                .hasMessageContaining("waiter.jpg: interrupted while waiting");
        assertThat(stillInterrupted.get()).isTrue();
        budget.release(1000);
        assertThat(budget.inUse()).isZero();
    }

    @Test
    @Timeout(30)
    void shouldServeAWaitingLargeReservationBeforeLaterSmallOnes() throws Exception {
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(100);
        budget.reserve(60, "a", "a");
        final CountDownLatch largeGot = new CountDownLatch(1);
        final Thread large = new Thread(() -> {
            budget.reserve(100, "large", "large");
            largeGot.countDown();
            budget.release(100);
        });
        large.start();
        while (large.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        final AtomicReference<Long> smallAt = new AtomicReference<>();
        final Thread small = new Thread(() -> {
            budget.reserve(30, "small", "small"); // fits now (60 + 30), but the large one came first
            smallAt.set(largeGot.getCount());
            budget.release(30);
        });
        small.start();
        Thread.sleep(100);
        budget.release(60);
        small.join(10_000);
        large.join(10_000);
        assertThat(smallAt.get()).as("the small reservation went after the large one").isZero();
    }

    @Test
    void shouldGiveTheBytesBackWhenTheDecodeFails() {
        final byte[] png = TestPngs.uniform(256, 256, 2, 10);
        final byte[] truncated = java.util.Arrays.copyOf(png, png.length - 20);
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(64 << 20);
        final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true, budget)) {
            assertThatThrownBy(() -> decoder.decode(TestImages.offHeap(truncated), 0, truncated.length, "cut.png",
                    SPEC, dst, 0)).isInstanceOf(MediaException.class);
            assertThat(budget.peakInUse()).as("it was reserved").isPositive();
            assertThat(budget.inUse()).as("and given back").isZero();
        }
    }
}
