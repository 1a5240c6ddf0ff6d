/**
 * spdl4j media-native.
 */
package org.spdl4j.media;
