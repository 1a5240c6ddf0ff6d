/**
 * spdl4j cuda-staging.
 */
package org.spdl4j.cuda;
