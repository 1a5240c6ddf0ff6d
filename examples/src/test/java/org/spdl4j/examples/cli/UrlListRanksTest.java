package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.examples.http.UrlList;

/** Each rank fetches its share of a URL list: entry i goes to rank i % world size. */
class UrlListRanksTest {
    @TempDir
    Path dir;

    @Test
    void shouldGiveEachRankItsShareOfTheList() throws Exception {
        Path list = dir.resolve("urls.txt");
        Files.writeString(list, "http://h/0.jpg\t0\nhttp://h/1.jpg\t1\nhttp://h/2.jpg\t2\nhttp://h/3.jpg\t3\n"
                + "http://h/4.jpg\t4\n");
        List<Integer> all = DataArgs.urls(null, list, RankInfo.SINGLE).stream().map(UrlList.Entry::label).toList();
        List<Integer> rank0 = DataArgs.urls(null, list, new RankInfo(0, 2)).stream().map(UrlList.Entry::label)
                .toList();
        List<Integer> rank1 = DataArgs.urls(null, list, new RankInfo(1, 2)).stream().map(UrlList.Entry::label)
                .toList();
        assertThat(all).containsExactly(0, 1, 2, 3, 4);
        assertThat(rank0).containsExactly(0, 2, 4);
        assertThat(rank1).containsExactly(1, 3);
    }
}
