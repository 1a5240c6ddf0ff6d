/**
 * spdl4j engine.
 */
package org.spdl4j.engine;
