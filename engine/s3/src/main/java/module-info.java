/**
 * spdl4j's S3 sources: objects and WebDataset tar shards (plain or compressed) of S3 and S3-compatible stores, read
 * by the AWS SDK for Java v2's asynchronous client into a loader ({@link org.spdl4j.s3.S3ObjectStore}, an
 * {@link org.spdl4j.loader.ObjectStore}). The engine itself knows no SDK: this module plugs into its
 * {@code ObjectStore} and {@code ShardOpener} interfaces.
 */
// requires-automatic: the SDK's jars are automatic modules (named in their manifests); module: "s3" ends in a digit
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic", "module"})
module org.spdl4j.s3 {
    requires transitive org.spdl4j.engine;
    requires software.amazon.awssdk.services.s3;
    requires software.amazon.awssdk.core;
    requires software.amazon.awssdk.awscore;
    requires software.amazon.awssdk.auth;
    requires software.amazon.awssdk.identity.spi;
    requires software.amazon.awssdk.regions;
    requires software.amazon.awssdk.http.nio.netty;
    requires software.amazon.awssdk.http;
    requires software.amazon.awssdk.utils;
    requires software.amazon.awssdk.retries;
    requires software.amazon.awssdk.retries.api;
    requires org.reactivestreams;
    requires org.slf4j;
    requires com.github.luben.zstd_jni; // resolves the engine's optional .tar.zst decoder on the module path

    exports org.spdl4j.s3;
}
