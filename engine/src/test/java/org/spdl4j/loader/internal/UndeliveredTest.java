package org.spdl4j.loader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spdl4j.loader.LoaderState;

/**
 * The loader's discard hook settles the late result of a timed-out read (the engine already failed it) and keeps the
 * item out of reuse, but leaves an item the close discards unsettled, for a resumed run to load again.
 */
class UndeliveredTest {
    private final LoaderItemPool items = new LoaderItemPool(8);
    private final LoaderControl control = new LoaderControl();
    private final Progress progress = new Progress(LoaderState.start(0, 0, 1), 3);
    private final Undelivered hook = new Undelivered(items, control, progress);

    private LoaderItem item(String key, long position) {
        return TestItems.named(items, key, position);
    }

    @Test
    void shouldSettleTheLateResultOfATimedOutReadAndKeepItsName() {
        progress.settle(0, 0);
        progress.settle(0, 2);
        LoaderItem late = item("slow.jpg", 1);
        hook.accept(late);
        assertThat(late.key).as("the engine may still be naming it in its failure log").isEqualTo("slow.jpg");
        assertThat(items.take()).as("not handed out again").isNotSameAs(late);
        progress.epochEnded(0, 3);
        assertThat(progress.state().epoch()).as("the epoch has no hole: %s", progress.state().encode()).isOne();
    }

    @Test
    void shouldLeaveAnItemTheCloseDiscardsForAResumedRun() {
        progress.settle(0, 0);
        progress.settle(0, 2);
        control.closing();
        hook.accept(item("in-flight.jpg", 1));
        progress.epochEnded(0, 3);
        assertThat(progress.state().encode()).contains("0:1");
    }
}
