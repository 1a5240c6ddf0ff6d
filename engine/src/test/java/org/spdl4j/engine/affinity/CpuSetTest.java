package org.spdl4j.engine.affinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CpuSetTest {

    @Test
    void shouldParseTasksetListFormat() {
        CpuSet s = CpuSet.parse("0-3,6");
        assertThat(s.toArray()).containsExactly(0, 1, 2, 3, 6);
        assertThat(s.size()).isEqualTo(5);
        assertThat(s.highest()).isEqualTo(6);
        assertThat(s.contains(4)).isFalse();
        assertThat(s.contains(-1)).isFalse();
        assertThat(CpuSet.parse(" 2 , 0 ").toArray()).containsExactly(0, 2);
        assertThat(CpuSet.parse("5-5").toArray()).containsExactly(5);
    }

    @Test
    void shouldFormatWithRangesMerged() {
        assertThat(CpuSet.of(6, 0, 1, 2, 3)).hasToString("0-3,6");
        assertThat(CpuSet.of(0, 2, 4)).hasToString("0,2,4");
        assertThat(CpuSet.of(1, 2)).hasToString("1-2");
        assertThat(CpuSet.of(63, 64, 65, 127, 128)).hasToString("63-65,127-128");
        assertThat(CpuSet.of()).hasToString("");
        assertThat(CpuSet.range(4, 7)).hasToString("4-7");
    }

    @Test
    void shouldRoundTripThroughTextAndMaskWords() {
        CpuSet s = CpuSet.parse("0,5,63-64,200,8191");
        assertThat(CpuSet.parse(s.toString())).isEqualTo(s);
        assertThat(CpuSet.fromMaskWords(s.toMaskWords())).isEqualTo(s).hasSameHashCodeAs(s);
        long[] words = CpuSet.of(0, 65).toMaskWords();
        assertThat(words).containsExactly(1L, 2L);
        assertThat(CpuSet.of(1, 1, 1)).isEqualTo(CpuSet.of(1));
        assertThat(CpuSet.fromMaskWords(new long[] {0, 0})).isEqualTo(CpuSet.of()).matches(CpuSet::isEmpty);
    }

    @Test
    void shouldKeepItsOwnCopyOfTheMask() {
        CpuSet s = CpuSet.of(3);
        long[] words = s.toMaskWords();
        words[0] = -1L;
        assertThat(s).hasToString("3");
    }

    @Test
    void shouldRejectWhatIsNotACpuList() {
        assertThatThrownBy(() -> CpuSet.parse("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is empty");
        assertThatThrownBy(() -> CpuSet.parse("0,,2")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'' is not a CPU or a range");
        assertThatThrownBy(() -> CpuSet.parse("a-3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a-3' is not a CPU or a range");
        assertThatThrownBy(() -> CpuSet.parse("-1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'-1' is not a CPU or a range");
        assertThatThrownBy(() -> CpuSet.parse("3-1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range '3-1' is reversed");
        assertThatThrownBy(() -> CpuSet.parse("0-9999")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CPU 9999 must be in [0, 8191]");
    }

    @Test
    void shouldRejectNegativeCpusAtOnce() {
        assertThatThrownBy(() -> CpuSet.of(0, -2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CPU -2 must be in [0, 8191]");
    }

    @Test
    void shouldJudgeSetsAgainstTheMachineWhenTheProcessCpusAreUnknown() {
        int n = ThreadAffinity.cpuCount();
        assertThat(n).isGreaterThanOrEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(ThreadAffinity.problemWith(CpuSet.of(n - 1), null, n)).isEmpty();
        assertThat(ThreadAffinity.problemWith(CpuSet.of(0, n), null, n)).get().asString()
                .contains("names CPU " + n, "this machine has " + n + " CPU(s)");
        assertThat(ThreadAffinity.problemWith(CpuSet.of(), null, n)).get().asString().contains("CPU set is empty");
    }

    @Test
    void shouldJudgeSetsAgainstTheCpusTheProcessMayRunOn() {
        CpuSet allowed = CpuSet.parse("0-3"); // e.g. a container's cpuset on a 64-CPU machine
        assertThat(ThreadAffinity.problemWith(CpuSet.of(1, 3), allowed, 64)).isEmpty();
        assertThat(ThreadAffinity.problemWith(CpuSet.of(1, 5, 6), allowed, 64)).get().asString()
                .contains("CPU set 1,5-6 names CPUs 5-6 outside the CPUs this process may run on, 0-3",
                        "Pin to CPUs within 0-3", "taskset -a -cp", "leave the threads unpinned");
        assertThat(ThreadAffinity.problemWith(CpuSet.of(5), allowed, 64)).get().asString()
                .startsWith("CPU set 5 names CPU 5 outside");
        assertThat(ThreadAffinity.problemWith(CpuSet.of(), allowed, 64)).get().asString()
                .contains("CPU set is empty");
    }
}
