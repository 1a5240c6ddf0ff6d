/**
 * spdl4j perf.
 */
package org.spdl4j.perf;
