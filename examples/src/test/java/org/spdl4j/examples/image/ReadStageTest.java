package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.LargeBufferTurns;
import org.spdl4j.engine.source.LargeBufferTurns.Outcome;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;

/**
 * The read stage's failures name the file, in its message and in the item the engine logs afterwards; with turns
 * (INPUT order) a read passes its ticket whatever happens, reads out of turn once its wait is up, and fails when
 * interrupted while it waits.
 */
@Timeout(30)
class ReadStageTest {
    /** Files over this wait for their turn. */
    private static final int PLENTIFUL = 1024;

    @TempDir
    Path dir;

    @Test
    void shouldSayNoSuchFileAndLeaveTheFailedItemNamingItsFile() {
        ImageItemPool items = new ImageItemPool(2);
        try (BufferPool bytes = BufferPool.open(PoolConfig.builder("read-test").sizeClass(1024, 2).build())) {
            Path missing = dir.resolve("a.jpg");
            ImageItem item = takeFor(items, new FileItem(missing, "a.jpg", 0));
            assertThatThrownBy(() -> new ReadStage(bytes, items).apply(item)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("read " + missing + ": no such file");
            // The engine logs "task failed on item <item>" after the throw: the item must still name its file.
            assertThat(item).hasToString(missing.toString());
            assertThat(items.available()).as("a fresh item took the failed one's place").isEqualTo(2);
            assertThat(bytes.inUse()).isZero();
        }
    }

    @Test
    void shouldReadAFileIntoPooledBytes() throws Exception {
        ImageItemPool items = new ImageItemPool(2);
        try (BufferPool bytes = BufferPool.open(PoolConfig.builder("read-test").sizeClass(1024, 1).build())) {
            byte[] content = new byte[1000];
            new java.util.Random(7).nextBytes(content);
            Path file = Files.write(dir.resolve("b.jpg"), content);
            ImageItem item = new ReadStage(bytes, items).apply(takeFor(items, new FileItem(file, "b.jpg", 0)));
            int length = item.length;
            byte[] read = new byte[content.length];
            item.bytes.buffer().getBytes(0, read);
            items.release(item);
            assertThat(length).isEqualTo(content.length);
            assertThat(read).as("the pooled bytes hold the file").isEqualTo(content);
            assertThat(bytes.inUse()).isZero();
            assertThat(items.available()).isEqualTo(2);
        }
    }

    /** A ticket never passed (its item dropped before its read) delays a large read by the bound, then it goes on. */
    @Test
    void shouldReadALargeFileOutOfTurnOnceItsWaitIsUp() throws Exception {
        ImageItemPool items = new ImageItemPool(2);
        LargeBufferTurns turns = new LargeBufferTurns(Duration.ofMillis(50));
        openTicket(turns); // never passed
        try (BufferPool bytes = largeAndSmall()) {
            Path file = Files.write(dir.resolve("c.jpg"), new byte[2000]);
            ImageItem item = takeFor(items, new FileItem(file, "c.jpg", 0));
            item.ticket = openTicket(turns);
            ImageItem read = new ReadStage(bytes, items, turns, PLENTIFUL).apply(item);
            assertThat(read.length).isEqualTo(2000);
            items.release(read);
            assertThat(bytes.inUse()).isZero();
        }
    }

    /** A read that fails before it takes a buffer passes its ticket: younger large reads need not wait for it. */
    @Test
    void shouldPassTheTicketOfAReadThatFailsBeforeTakingABuffer() {
        ImageItemPool items = new ImageItemPool(2);
        LargeBufferTurns turns = new LargeBufferTurns(Duration.ofNanos(1)); // a probe: never waits
        try (BufferPool bytes = largeAndSmall()) {
            ImageItem item = takeFor(items, new FileItem(dir.resolve("missing.jpg"), "missing.jpg", 0));
            item.ticket = openTicket(turns);
            assertThatThrownBy(() -> new ReadStage(bytes, items, turns, PLENTIFUL).apply(item))
                .isInstanceOf(UncheckedIOException.class);
            assertThat(turns.awaitTurn(openTicket(turns), () -> false)).as("the next read's turn")
                .isEqualTo(Outcome.TURN_CAME);
        }
    }

    @Test
    void shouldFailALargeReadInterruptedWhileItWaitsForItsTurnAndKeepTheInterrupt() throws Exception {
        ImageItemPool items = new ImageItemPool(2);
        LargeBufferTurns turns = new LargeBufferTurns();
        openTicket(turns); // never passed: the read waits until interrupted
        try (BufferPool bytes = largeAndSmall()) {
            Path file = Files.write(dir.resolve("d.jpg"), new byte[2000]);
            ImageItem item = takeFor(items, new FileItem(file, "d.jpg", 0));
            item.ticket = openTicket(turns);
            CompletableFuture<Throwable> failure = new CompletableFuture<>();
            CompletableFuture<Boolean> interruptKept = new CompletableFuture<>();
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    new ReadStage(bytes, items, turns, PLENTIFUL).apply(item);
                    failure.complete(null);
                } catch (RuntimeException e) {
                    failure.complete(e);
                }
                interruptKept.complete(Thread.currentThread().isInterrupted());
            });
            while (turns.waiting() != 1) { // turns expose no event for it; the class timeout bounds the poll
                assertThat(failure).as("the read ended before it waited for its turn").isNotDone();
                Thread.sleep(1);
            }
            reader.interrupt();
            assertThat(failure.get(20, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                .hasMessage("read of " + file + " interrupted while waiting for older reads to take their buffers "
                    + "(the interrupt is kept)");
            assertThat(interruptKept.get(20, TimeUnit.SECONDS)).isTrue();
            assertThat(bytes.inUse()).isZero();
            assertThat(items.available()).as("a fresh item took the failed one's place").isEqualTo(2);
        }
    }

    /** Slabs for small files and one for a large one. */
    private static BufferPool largeAndSmall() {
        return BufferPool.open(PoolConfig.builder("read-turns-test").sizeClass(PLENTIFUL, 2).sizeClass(4096, 1)
            .build());
    }

    private static long openTicket(LargeBufferTurns turns) {
        long ticket = turns.ticket();
        turns.open(ticket);
        return ticket;
    }

    private static ImageItem takeFor(ImageItemPool items, FileItem file) {
        try {
            ImageItem item = items.take();
            item.file = file;
            return item;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
