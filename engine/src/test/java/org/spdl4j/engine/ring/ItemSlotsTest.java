package org.spdl4j.engine.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ItemSlotsTest {
    @Test
    void shouldKeepItemsAndEpochsBySequenceAcrossLaps() {
        ItemSlots slots = new ItemSlots(8);
        for (long s = 0; s < 8; s++) {
            slots.set(s, "lap0-" + s, 1);
        }
        for (long s = 0; s < 8; s++) {
            assertThat(slots.epoch(s)).isEqualTo(1);
            assertThat(slots.take(s)).isEqualTo("lap0-" + s);
            assertThat(slots.take(s)).as("take clears the reference").isNull();
        }
        slots.set(8, "lap1-0", 1);
        slots.set(9, "lap1-1", 2); // epoch changes mid-lap: the slot's stored epoch must follow
        assertThat(slots.epoch(8)).isEqualTo(1);
        assertThat(slots.epoch(9)).isEqualTo(2);
        assertThat(slots.epoch(1)).as("sequence 1 shares the slot of 9").isEqualTo(2);
        assertThat(slots.take(9)).isEqualTo("lap1-1");
        slots.set(17, "lap2-1", 1); // and back: a skipped store would leave 2 here
        assertThat(slots.epoch(17)).isEqualTo(1);
    }

    @Test
    void shouldMarkTheEndWithoutHandingItOutAsAnItem() {
        ItemSlots slots = new ItemSlots(4);
        slots.setEnd(2);
        slots.set(3, "x", 0);
        assertThat(slots.isEnd(2)).isTrue();
        assertThat(slots.isEnd(3)).isFalse();
        assertThat(slots.takeAtomically(2)).as("the sweep skips an end marker").isNull();
        assertThat(slots.isEnd(2)).as("and leaves it for its reader").isTrue();
        slots.set(6, "y", 0); // the next lap overwrites the marker
        assertThat(slots.isEnd(6)).isFalse();
        assertThat(slots.takeAtomically(6)).isEqualTo("y");
    }

    @Test
    void shouldRejectACapacityThatIsNotAPowerOfTwo() {
        assertThatThrownBy(() -> new ItemSlots(12)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two").hasMessageContaining("12");
        assertThatThrownBy(() -> new ItemSlots(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @Timeout(30)
    void shouldGiveEachItemToExactlyOneOfTwoRacingAtomicTakers() throws Exception {
        raceTwoTakers(false);
    }

    @Test
    @Timeout(30)
    void shouldGiveEachItemToExactlyOneOfTheConsumersSwapAndTheSweepsTake() throws Exception {
        raceTwoTakers(true);
    }

    /** Two threads take every slot at once (the sweep's way, and the other the consumer's way or the sweep's too). */
    private static void raceTwoTakers(boolean oneSwaps) throws Exception {
        int capacity = 1024;
        int rounds = 200;
        ItemSlots slots = new ItemSlots(capacity);
        AtomicInteger taken = new AtomicInteger();
        for (int r = 0; r < rounds; r++) {
            for (int s = 0; s < capacity; s++) {
                slots.set(s, Integer.valueOf(s), r);
            }
            CountDownLatch go = new CountDownLatch(1);
            Thread a = Thread.ofPlatform().start(taker(go, capacity, taken, s -> slots.takeAtomically(s)));
            Thread b = Thread.ofPlatform().start(taker(go, capacity, taken,
                    oneSwaps ? s -> slots.swapOut(s) : s -> slots.takeAtomically(s)));
            go.countDown();
            a.join();
            b.join();
            assertThat(taken.getAndSet(0)).as("round %d", r).isEqualTo(capacity);
        }
    }

    private static Runnable taker(CountDownLatch go, int capacity, AtomicInteger taken, LongFunction<Object> take) {
        return () -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            for (int s = 0; s < capacity; s++) {
                if (take.apply(s) != null) {
                    taken.incrementAndGet();
                }
            }
        };
    }
}
