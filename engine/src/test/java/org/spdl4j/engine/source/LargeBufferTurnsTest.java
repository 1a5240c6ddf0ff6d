package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.source.LargeBufferTurns.Outcome;

/**
 * A turn comes once every older open ticket has passed, in whatever order they open and pass; tickets not opened hold
 * no one back; a wait ends on its bound, its stop condition, close or interrupt, and says which.
 */
@Timeout(30)
class LargeBufferTurnsTest {
    private static final Duration LONG = Duration.ofSeconds(30);

    @Test
    void shouldLetATicketGoOnlyOnceEveryOlderOpenTicketHasPassedInAnyOrder() throws Exception {
        LargeBufferTurns turns = new LargeBufferTurns(LONG);
        long t0 = openTicket(turns);
        long t1 = openTicket(turns);
        long t2 = openTicket(turns);
        CompletableFuture<Outcome> waiter = waitOnAnotherThread(turns, t2, () -> false);
        turns.pass(t1); // out of order: t0 still holds the turn
        assertThat(waitFor(waiter, 200)).as("went on before ticket 0 passed").isNull();
        turns.pass(t0);
        assertThat(waiter.get(20, TimeUnit.SECONDS)).as("once 0 and 1 passed").isEqualTo(Outcome.TURN_CAME);
        turns.pass(t2);
        turns.pass(t2); // idempotent
        assertThat(turns.awaitTurn(openTicket(turns), () -> false)).as("every older one passed: no wait")
            .isEqualTo(Outcome.TURN_CAME);
    }

    /** Tickets opened and passed in random orders, past the initial room for open tickets. */
    @Test
    void shouldGiveTheTurnToTheOldestOpenTicketWhateverOrderTheyOpenAndPassIn() {
        LargeBufferTurns turns = new LargeBufferTurns(Duration.ofNanos(1)); // a probe: never waits
        Random random = new Random(11);
        List<Long> tickets = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            tickets.add(turns.ticket());
        }
        List<Long> opening = new ArrayList<>(tickets);
        Collections.shuffle(opening, random);
        opening.forEach(turns::open);
        List<Long> passing = new ArrayList<>(tickets);
        Collections.shuffle(passing, random);
        boolean[] passed = new boolean[tickets.size()];
        for (long p : passing) {
            turns.pass(p);
            passed[(int) p] = true;
            int oldestOpen = 0;
            while (oldestOpen < passed.length && passed[oldestOpen]) {
                oldestOpen++;
            }
            for (long t : tickets) {
                assertThat(turns.awaitTurn(t, () -> false)).as("ticket %d after passing %d", t, p)
                    .isEqualTo(t <= oldestOpen ? Outcome.TURN_CAME : Outcome.TIMED_OUT);
            }
        }
    }

    /** A request queued for a slot that a younger one holds has a ticket but has not opened it: no one waits for it. */
    @Test
    void shouldNotMakeAnyoneWaitForATicketNotOpenedYet() throws Exception {
        LargeBufferTurns turns = new LargeBufferTurns();
        long queued = turns.ticket();
        long started = openTicket(turns);
        assertThat(turns.awaitTurn(started, () -> false)).isEqualTo(Outcome.TURN_CAME);
        turns.pass(queued); // never opened: nothing to pass
        turns.open(queued); // opens once its work starts: now the younger one waits for it
        CompletableFuture<Outcome> waiter = waitOnAnotherThread(turns, started, () -> false);
        awaitWaiting(turns, 1, waiter);
        turns.pass(queued);
        assertThat(waiter.get(20, TimeUnit.SECONDS)).isEqualTo(Outcome.TURN_CAME);
    }

    /** A ticket never passed holds the next one back for the bound, not less, then lets it go (not forever). */
    @Test
    void shouldStopWaitingAfterItsBound() {
        LargeBufferTurns turns = new LargeBufferTurns(Duration.ofMillis(50));
        openTicket(turns); // never passed
        long late = openTicket(turns);
        long t0 = System.nanoTime();
        assertThat(turns.awaitTurn(late, () -> false)).isEqualTo(Outcome.TIMED_OUT);
        assertThat(System.nanoTime() - t0).as("waited for its turn, in ns, before giving up")
            .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(turns.waiting()).isZero();
    }

    @Test
    void shouldEndEveryWaitWhenClosedAndEveryLaterOneAtOnce() throws Exception {
        LargeBufferTurns turns = new LargeBufferTurns();
        long older = openTicket(turns); // never passed
        CompletableFuture<Outcome> waiter = waitOnAnotherThread(turns, openTicket(turns), () -> false);
        awaitWaiting(turns, 1, waiter);
        turns.close();
        assertThat(waiter.get(20, TimeUnit.SECONDS)).isEqualTo(Outcome.CLOSED);
        turns.open(older); // ignored once closed
        assertThat(turns.awaitTurn(openTicket(turns), () -> false)).isEqualTo(Outcome.CLOSED);
        turns.close(); // idempotent
    }

    /** An aborted request stops waiting once woken, without any ticket passing. */
    @Test
    void shouldEndAWaitWhoseStopConditionHoldsWhenWoken() throws Exception {
        LargeBufferTurns turns = new LargeBufferTurns();
        openTicket(turns); // never passed
        AtomicBoolean aborted = new AtomicBoolean();
        CompletableFuture<Outcome> waiter = waitOnAnotherThread(turns, openTicket(turns), aborted::get);
        awaitWaiting(turns, 1, waiter);
        aborted.set(true);
        turns.wake();
        assertThat(waiter.get(20, TimeUnit.SECONDS)).isEqualTo(Outcome.STOPPED);
        assertThat(turns.waiting()).isZero();
    }

    @Test
    void shouldEndAWaitOnInterruptAndKeepTheInterrupt() throws Exception {
        LargeBufferTurns turns = new LargeBufferTurns();
        openTicket(turns); // never passed
        long ticket = openTicket(turns);
        CompletableFuture<Boolean> interruptKept = new CompletableFuture<>();
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            outcome.complete(turns.awaitTurn(ticket, () -> false));
            interruptKept.complete(Thread.currentThread().isInterrupted());
        });
        awaitWaiting(turns, 1, outcome);
        waiter.interrupt();
        assertThat(outcome.get(20, TimeUnit.SECONDS)).isEqualTo(Outcome.INTERRUPTED);
        assertThat(interruptKept.get(20, TimeUnit.SECONDS)).as("interrupt flag set again").isTrue();
    }

    @Test
    void shouldRefuseABoundThatIsNotPositive() {
        assertThatThrownBy(() -> new LargeBufferTurns(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("maxWait must be positive");
        assertThat(new LargeBufferTurns(Duration.ofSeconds(Long.MAX_VALUE)).awaitTurn(0, () -> false))
            .as("a bound too long for nanoseconds is no bound").isEqualTo(Outcome.TURN_CAME);
    }

    private static long openTicket(LargeBufferTurns turns) {
        long ticket = turns.ticket();
        turns.open(ticket);
        return ticket;
    }

    private static CompletableFuture<Outcome> waitOnAnotherThread(LargeBufferTurns turns, long ticket,
                                                                  BooleanSupplier stop) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> outcome.complete(turns.awaitTurn(ticket, stop)));
        return outcome;
    }

    /** The outcome if the wait ends within {@code millis}, else null (it still waits). */
    private static Outcome waitFor(CompletableFuture<Outcome> waiter, long millis) throws Exception {
        try {
            return waiter.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillWaiting) {
            return null;
        }
    }

    /**
     * Polls until {@code count} requests wait (turns expose no event for it), failing at once if {@code waiter}'s wait
     * ended first; an interrupt (the class timeout) ends the poll.
     */
    private static void awaitWaiting(LargeBufferTurns turns, int count, CompletableFuture<Outcome> waiter)
            throws InterruptedException {
        while (turns.waiting() != count) {
            assertThat(waiter).as("the wait ended before it was observed waiting").isNotDone();
            Thread.sleep(1);
        }
    }
}
