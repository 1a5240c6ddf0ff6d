/**
 * Loader sources on S3 and S3-compatible stores: {@link org.spdl4j.s3.S3ObjectStore} lists {@code s3://bucket/prefix/}
 * into whole objects or WebDataset tar shards and reads them into a loader, through the engine's
 * {@link org.spdl4j.loader.ObjectStore} plug-in point.
 */
package org.spdl4j.s3;
