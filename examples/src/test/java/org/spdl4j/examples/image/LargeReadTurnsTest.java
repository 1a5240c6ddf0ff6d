package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A large read's turn comes once every older ticket has passed, in whatever order they pass; the wait is bounded. */
@Timeout(30)
class LargeReadTurnsTest {
    @Test
    void shouldLetATicketGoOnlyOnceEveryOlderOneHasPassedInAnyOrder() throws Exception {
        LargeReadTurns turns = new LargeReadTurns(4, TimeUnit.SECONDS.toNanos(30));
        long t0 = turns.ticket();
        long t1 = turns.ticket();
        long t2 = turns.ticket();
        CountDownLatch through = new CountDownLatch(1);
        Thread waiter = Thread.ofVirtual().start(() -> {
            turns.awaitTurn(t2, "c.jpg");
            through.countDown();
        });
        turns.pass(t1); // out of order: t0 still holds the turn
        assertThat(through.await(200, TimeUnit.MILLISECONDS)).as("went on before ticket 0 passed").isFalse();
        turns.pass(t0);
        assertThat(through.await(20, TimeUnit.SECONDS)).as("let through once 0 and 1 passed").isTrue();
        waiter.join();
        turns.pass(t2);
        long t3 = turns.ticket();
        turns.awaitTurn(t3, "d.jpg"); // every older one passed: no wait
    }

    /** A ticket never passed holds the next read back for the bound, not less, then lets it go (not forever). */
    @Test
    void shouldStopWaitingAfterItsBound() {
        LargeReadTurns turns = new LargeReadTurns(2, TimeUnit.MILLISECONDS.toNanos(50));
        turns.ticket(); // never passed
        long late = turns.ticket();
        long t0 = System.nanoTime();
        turns.awaitTurn(late, "e.jpg"); // returns after ~50 ms instead of hanging the read (the class's @Timeout)
        assertThat(System.nanoTime() - t0).as("waited for its turn, in ns, before giving up")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
}
