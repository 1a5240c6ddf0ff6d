/**
 * spdl4j examples.
 */
package org.spdl4j.examples;
