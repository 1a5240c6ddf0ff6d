package org.spdl4j.loader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A decode past the timeout is told while it runs, once; one that ended in time is never told. */
class DecodeWatchTest {
    @Test
    void shouldTellAnOverdueDecodeOnceWhileItRuns() throws Exception {
        List<String> told = new CopyOnWriteArrayList<>();
        try (DecodeWatch watch = new DecodeWatch("run:decode", 200_000_000L, told::add)) {
            DecodeWatch.Running quick = watch.started("quick.jpg", System.nanoTime());
            DecodeWatch.ended(quick);
            DecodeWatch.Running stuck = watch.started("stuck.jpg", System.nanoTime());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (told.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Thread.sleep(2_500); // more ticks: still told once
            assertThat(told).hasSize(1);
            assertThat(told.get(0)).contains("run:decode", "stuck.jpg", "past the decode timeout of 200 ms",
                Thread.currentThread().getName());
            DecodeWatch.ended(stuck);
        }
        assertThat(told).noneMatch(m -> m.contains("quick.jpg"));
    }
}
