package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SystemPropertiesTest {
    private static final String NAME = "spdl4j.test.systemPropertiesTest";

    @AfterEach
    void clear() {
        System.clearProperty(NAME);
    }

    @Test
    void shouldReturnTheDefaultWhenUnset() {
        assertThat(SystemProperties.intValue(NAME, 7, 0, 10)).isEqualTo(7);
        assertThat(SystemProperties.longValue(NAME, -3, Long.MIN_VALUE, 0)).isEqualTo(-3);
        assertThat(SystemProperties.powerOfTwoValue(NAME, 64, 1 << 30)).isEqualTo(64);
        assertThat(SystemProperties.enumValue(NAME, TimeUnit.SECONDS)).isEqualTo(TimeUnit.SECONDS);
    }

    @Test
    void shouldParseTrimmedValuesAndEnumsIgnoringCase() {
        System.setProperty(NAME, " 8 ");
        assertThat(SystemProperties.intValue(NAME, 7, 0, 10)).isEqualTo(8);
        assertThat(SystemProperties.powerOfTwoValue(NAME, 64, 1 << 30)).isEqualTo(8);
        System.setProperty(NAME, "millisECONDS");
        assertThat(SystemProperties.enumValue(NAME, TimeUnit.SECONDS)).isEqualTo(TimeUnit.MILLISECONDS);
    }

    @Test
    void shouldNameThePropertyOfAValueThatDoesNotParseOrFit() {
        System.setProperty(NAME, "4k");
        assertThatThrownBy(() -> SystemProperties.intValue(NAME, 7, 0, 10))
                .hasMessage("system property " + NAME + "='4k' is not an integer (default 7)");
        System.setProperty(NAME, "11");
        assertThatThrownBy(() -> SystemProperties.intValue(NAME, 7, 0, 10))
                .hasMessage("system property " + NAME + "=11 must be in [0, 10] (default 7)");
        System.setProperty(NAME, "3000000000");
        assertThatThrownBy(() -> SystemProperties.intValue(NAME, 7, 0, Integer.MAX_VALUE))
                .hasMessageContaining("must be in [0, 2147483647]");
        System.setProperty(NAME, "96");
        assertThatThrownBy(() -> SystemProperties.powerOfTwoValue(NAME, 64, 1 << 30))
                .hasMessage("system property " + NAME + "=96 must be a power of two (try 128)");
        System.setProperty(NAME, "fortnights");
        assertThatThrownBy(() -> SystemProperties.enumValue(NAME, TimeUnit.SECONDS))
                .hasMessageContaining("='fortnights' is none of [NANOSECONDS,");
    }

    @Test
    void shouldReadBooleansStrictly() {
        assertThat(SystemProperties.booleanValue(NAME, true)).isTrue();
        System.setProperty(NAME, " False ");
        assertThat(SystemProperties.booleanValue(NAME, true)).isFalse();
        System.setProperty(NAME, "1");
        assertThatThrownBy(() -> SystemProperties.booleanValue(NAME, false))
                .hasMessage("system property " + NAME + "='1' is neither true nor false (default false)");
    }
}
