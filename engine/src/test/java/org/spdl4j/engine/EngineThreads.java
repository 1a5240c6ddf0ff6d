package org.spdl4j.engine;

import java.util.List;

/** Test helper: the engine's live platform threads. */
final class EngineThreads {
    private EngineThreads() {
    }

    /** {@return names of live threads whose name starts with {@code spdl4j-<pipeline>-}} */
    static List<String> alive(String pipeline) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(n -> n.startsWith("spdl4j-" + pipeline + "-"))
                .toList();
    }

    /** {@return the live thread named {@code name}; fails when there is none} */
    static Thread thread(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no live thread " + name + "; live: " + aliveAny()));
    }

    /** {@return names of every live spdl4j thread} */
    static List<String> aliveAny() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(n -> n.startsWith("spdl4j-"))
                .toList();
    }

    /** Sleeps {@code millis}, restoring the interrupt flag if interrupted (close interrupts sleeping sources). */
    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Busy-waits {@code nanos} without parking (a CPU-bound task of known length). */
    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
