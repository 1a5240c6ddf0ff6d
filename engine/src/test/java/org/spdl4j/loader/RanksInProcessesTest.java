package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * Ranks as separate processes started at once, each told its rank only by RANK / WORLD_SIZE as a launcher does: four
 * ranks deliver each epoch's samples exactly once between them, and a job of two stopped mid-epoch resumes on three.
 */
class RanksInProcessesTest {
    private static final int SAMPLES = 103;

    @TempDir
    static Path dir;
    static Path folder;

    @BeforeAll
    static void data() throws Exception {
        folder = dir.resolve("folder");
        Files.createDirectories(folder);
        for (int i = 0; i < SAMPLES; i++) {
            Files.write(folder.resolve(String.format("s%03d.bin", i)), ("id:" + i).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Runs a job: one process per rank, all at once; returns each rank's "epoch key" lines. */
    private static List<List<String>> job(String name, int world, int[] batches, List<Path> resume) throws Exception {
        List<Process> children = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            List<String> options = new ArrayList<>(List.of("-Drank.folder=" + folder,
                "-Drank.keys=" + dir.resolve(name + "-keys-" + r), "-Drank.state=" + state(name, r)));
            if (batches != null) {
                options.add("-Drank.batches=" + batches[r]);
            }
            if (resume != null) {
                options.add("-Drank.resume=" + String.join(File.pathSeparator,
                    resume.stream().map(Path::toString).toList()));
            }
            children.add(ChildJvm.start(options, Map.of("RANK", Integer.toString(r), "WORLD_SIZE",
                Integer.toString(world)), RankChild.class));
        }
        List<List<String>> out = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            ChildJvm.Result result = ChildJvm.await(children.get(r));
            assertThat(result.exit()).as("rank %d of %d: %s", r, world, result.output()).isZero();
            out.add(Files.readAllLines(dir.resolve(name + "-keys-" + r)));
        }
        return out;
    }

    private static Path state(String name, int rank) {
        return dir.resolve(name + "-state-" + rank);
    }

    private static List<String> epoch(List<List<String>> ranks, long e) {
        List<String> keys = new ArrayList<>();
        for (List<String> lines : ranks) {
            for (String line : lines) {
                int space = line.indexOf(' ');
                if (Long.parseLong(line.substring(0, space)) == e) {
                    keys.add(line.substring(space + 1));
                }
            }
        }
        return keys;
    }

    @Test
    void shouldDeliverEachEpochOnceAcrossFourRankProcesses() throws Exception {
        List<List<String>> ranks = job("four", 4, null, null);
        Set<String> seen = new HashSet<>();
        for (long e = 0; e < 2; e++) {
            List<String> keys = epoch(ranks, e);
            assertThat(keys).as("epoch %d", e).hasSize(SAMPLES / 4 * 4).doesNotHaveDuplicates();
            seen.addAll(keys);
            for (List<String> rank : ranks) {
                assertThat(epoch(List.of(rank), e)).hasSize(SAMPLES / 4);
            }
        }
        assertThat(epoch(ranks, 0)).as("another order each epoch").isNotEqualTo(epoch(ranks, 1));
        assertThat(seen.size()).isGreaterThan(SAMPLES / 4 * 4).isLessThanOrEqualTo(SAMPLES);
    }

    @Test
    void shouldResumeAJobOfTwoOnThreeProcesses() throws Exception {
        List<String> whole = epoch(job("whole2", 2, null, null), 0);
        List<List<String>> first = job("first", 2, new int[] {6, 3}, null);
        List<List<String>> second = job("second", 3, null, List.of(state("first", 0), state("first", 1)));
        List<String> delivered = epoch(first, 0);
        delivered.addAll(epoch(second, 0));
        assertThat(delivered).hasSize(whole.size()).containsExactlyInAnyOrderElementsOf(whole);
        List<List<String>> three = job("whole3", 3, null, null);
        assertThat(epoch(second, 1)).as("epoch 1 as an uninterrupted job of three")
            .containsExactlyInAnyOrderElementsOf(epoch(three, 1));
    }
}
