package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SystemPropertiesTest {
    private static final String NAME = "spdl4j.test.systemPropertiesTest";
    private static final String EARLIER_NAME = "spdl4j.test.systemPropertiesTest.earlier";

    @AfterEach
    void clear() {
        System.clearProperty(NAME);
        System.clearProperty(EARLIER_NAME);
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

    /** A renamed boolean property: its earlier name still read when the new one is unset, the new one winning. */
    @Test
    void shouldReadABooleanUnderItsEarlierNameWhenTheNewOneIsUnset() {
        assertThat(SystemProperties.booleanValue(NAME, EARLIER_NAME, true)).isTrue();
        System.setProperty(EARLIER_NAME, " FALSE ");
        assertThat(SystemProperties.booleanValue(NAME, EARLIER_NAME, true)).isFalse();
        System.setProperty(NAME, "true");
        assertThat(SystemProperties.booleanValue(NAME, EARLIER_NAME, false)).as("the new name wins").isTrue();
        System.setProperty(EARLIER_NAME, "0");
        assertThat(SystemProperties.booleanValue(NAME, EARLIER_NAME, false))
                .as("the earlier name is not read when the new one is set").isTrue();
        System.setProperty(NAME, "yes");
        assertThatThrownBy(() -> SystemProperties.booleanValue(NAME, EARLIER_NAME, true))
                .hasMessage("system property " + NAME + "='yes' is neither true nor false (default true)");
        System.clearProperty(NAME);
        assertThatThrownBy(() -> SystemProperties.booleanValue(NAME, EARLIER_NAME, true))
                .hasMessage("system property " + EARLIER_NAME + "='0' is neither true nor false (default true)");
    }
}
