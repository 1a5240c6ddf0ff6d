package org.spdl4j.offheap.testing;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * No engine thread ({@code spdl4j-*}, platform threads: stage workers, sources, watchdogs) may outlive the test class
 * that started it. Threads alive before the class are another class's (and reported there).
 */
final class EngineThreadsLeftoverCheck implements LeftoverCheck {
    private static final String PREFIX = "spdl4j-";
    private Set<Thread> baseline = Set.of();

    @Override
    public void before() {
        baseline = Set.copyOf(alive());
    }

    @Override
    public String leftovers() {
        List<String> left = alive().stream().filter(t -> !baseline.contains(t)).map(Thread::getName).sorted()
                .toList();
        return left.isEmpty() ? null : left.size() + " spdl4j thread(s) still alive: "
                + left.stream().collect(Collectors.joining(", "));
    }

    private static List<Thread> alive() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(PREFIX)).toList();
    }
}
