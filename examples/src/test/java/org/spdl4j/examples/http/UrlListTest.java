package org.spdl4j.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A URL list saved with a UTF-8 byte order mark (Notepad, PowerShell) reads like one without. */
class UrlListTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadAListThatStartsWithAByteOrderMark() throws Exception {
        Path list = Files.writeString(dir.resolve("urls.txt"),
            "\uFEFFhttp://example.com/a.jpg\t2\r\nhttp://example.com/b.jpg\r\n", StandardCharsets.UTF_8);
        assertThat(UrlList.isUrlList(list)).isTrue();
        assertThat(UrlList.read(list)).containsExactly(
            new UrlList.Entry(URI.create("http://example.com/a.jpg"), 2),
            new UrlList.Entry(URI.create("http://example.com/b.jpg"), -1));
    }
}
