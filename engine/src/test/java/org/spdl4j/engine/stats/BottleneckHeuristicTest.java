package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BottleneckHeuristicTest {

    private static int find(double[] busy, double[] starved, double[] bp) {
        return BottleneckHeuristic.find(busy, starved, bp, 50, 25);
    }

    @Test
    void shouldNameTheBusyStageWhoseSuccessorStarves() {
        // source back-pressured, decode saturated, batch waits for decode
        int i = find(new double[] {10, 98, 5}, new double[] {0, 0, 90}, new double[] {85, 0, 0});
        assertThat(i).isEqualTo(1);
    }

    @Test
    void shouldPreferTheBusiestOfSeveralCandidates() {
        int i = find(new double[] {60, 0, 95, 0}, new double[] {0, 40, 0, 80}, new double[] {0, 0, 0, 0});
        assertThat(i).isEqualTo(2);
    }

    @Test
    void shouldNotBlameABusyStageWhoseSuccessorIsAlsoBusy() {
        int i = find(new double[] {90, 90}, new double[] {0, 5}, new double[] {0, 0});
        assertThat(i).isEqualTo(1); // only the last stage qualifies: nothing waits after it
        int none = find(new double[] {90, 40}, new double[] {0, 5}, new double[] {0, 0});
        assertThat(none).isEqualTo(BottleneckHeuristic.NONE);
    }

    @Test
    void shouldBlameTheConsumerWhenTheLastStageIsBlockedOnItsOutput() {
        int i = find(new double[] {20, 30}, new double[] {0, 0}, new double[] {70, 60});
        assertThat(i).isEqualTo(BottleneckHeuristic.CONSUMER);
    }

    @Test
    void shouldBlameTheConsumerWhenTheStageBeforeAPassiveSinkIsBlocked() {
        // source, map, sink (the engine's consumer buffer: no task time, only starved time)
        int i = find(new double[] {5, 20, 0}, new double[] {0, 0, 2}, new double[] {90, 75, 0});
        assertThat(i).isEqualTo(BottleneckHeuristic.CONSUMER);
    }

    @Test
    void shouldNameTheStageTheConsumerWaitsFor() {
        // source, map (busy), sink: the consumer waits on the sink
        int i = find(new double[] {5, 97, 0}, new double[] {0, 0, 90}, new double[] {80, 0, 0});
        assertThat(i).isEqualTo(1);
    }

    @Test
    void shouldBlameNobodyWhenIdle() {
        assertThat(find(new double[] {1, 2}, new double[] {99, 99}, new double[] {0, 0}))
                .isEqualTo(BottleneckHeuristic.NONE);
        assertThat(find(new double[0], new double[0], new double[0])).isEqualTo(BottleneckHeuristic.NONE);
    }
}
