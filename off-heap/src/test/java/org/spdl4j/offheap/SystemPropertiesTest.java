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
        assertThat(SystemProperties.enumValue(NAME, TimeUnit.SECONDS)).isEqualTo(TimeUnit.SECONDS);
    }

    @Test
    void shouldParseTrimmedValuesAndEnumsIgnoringCase() {
        System.setProperty(NAME, " 8 ");
        assertThat(SystemProperties.intValue(NAME, 7, 0, 10)).isEqualTo(8);
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
        System.setProperty(NAME, "fortnights");
        assertThatThrownBy(() -> SystemProperties.enumValue(NAME, TimeUnit.SECONDS))
                .hasMessageContaining("='fortnights' is none of [NANOSECONDS,");
    }

    /** A percentage or a ratio: {@link Double#parseDouble} named no property, and took "NaN" and "Infinity". */
    @Test
    void shouldReadFiniteDoublesInRange() {
        assertThat(SystemProperties.doubleValue(NAME, 5.0, 0, 100)).isEqualTo(5.0);
        System.setProperty(NAME, " 2.5 ");
        assertThat(SystemProperties.doubleValue(NAME, 5.0, 0, 100)).isEqualTo(2.5);
        System.setProperty(NAME, "5%");
        assertThatThrownBy(() -> SystemProperties.doubleValue(NAME, 5.0, 0, 100))
                .hasMessage("system property " + NAME + "='5%' is not a number (default 5.0)");
        System.setProperty(NAME, "NaN");
        assertThatThrownBy(() -> SystemProperties.doubleValue(NAME, 5.0, 0, Double.MAX_VALUE))
                .hasMessage("system property " + NAME + "='NaN' is not a finite number (default 5.0)");
        System.setProperty(NAME, "Infinity");
        assertThatThrownBy(() -> SystemProperties.doubleValue(NAME, 5.0, 0, Double.MAX_VALUE))
                .hasMessageContaining("'Infinity' is not a finite number");
        System.setProperty(NAME, "-0.5");
        assertThatThrownBy(() -> SystemProperties.doubleValue(NAME, 5.0, 0, 100))
                .hasMessage("system property " + NAME + "=-0.5 must be in [0.0, 100.0] (default 5.0)");
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
