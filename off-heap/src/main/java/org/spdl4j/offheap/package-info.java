/**
 * spdl4j off-heap.
 */
package org.spdl4j.offheap;
