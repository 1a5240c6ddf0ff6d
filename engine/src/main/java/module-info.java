/**
 * spdl4j's pipeline engine: {@link org.spdl4j.engine.PipelineBuilder} describes a pipeline,
 * {@link org.spdl4j.engine.Pipeline} runs it; sources, statistics, stage profiling, CPU affinity and the loaders.
 *
 * <p>Not exported: {@code org.spdl4j.engine.ring} (the rings between stages) and {@code org.spdl4j.engine.runtime}
 * (the workers and their threads) are the engine's internals and change freely (only spdl4j-records, module
 * {@code org.spdl4j.records}, may use them); so is {@code org.spdl4j.loader.internal}.
 *
 * <p>On the module path it needs {@code --enable-native-access=org.spdl4j.engine} (CPU affinity's FFM downcalls)
 * besides what {@code org.spdl4j.offheap} needs.
 */
// requires-automatic: HdrHistogram has no module name; module: org.spdl4j.records, the target of two qualified
// exports, is built after this module, so javac never finds it here
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic", "module"})
module org.spdl4j.engine {
    requires transitive org.spdl4j.offheap;
    requires com.lmax.disruptor;
    requires org.jctools.core;
    requires transitive HdrHistogram; // stats hand out Histograms; the name comes from the jar's file name
    requires org.slf4j;
    requires java.management;
    requires jdk.management;
    requires java.net.http;
    requires static com.github.luben.zstd_jni; // .tar.zst shards, optional (ShardCompression)
    requires transitive jdk.jfr; // StageStatsEvent is a JFR event

    exports org.spdl4j.engine;
    exports org.spdl4j.engine.affinity;
    exports org.spdl4j.engine.loader;
    exports org.spdl4j.engine.profile;
    exports org.spdl4j.engine.source;
    exports org.spdl4j.engine.source.http;
    exports org.spdl4j.engine.source.tar;
    exports org.spdl4j.engine.stats;
    exports org.spdl4j.engine.tune;
    exports org.spdl4j.loader;

    // spdl4j-records runs its record rings on the engine's sequencing, work sharing, threads and failures
    exports org.spdl4j.engine.ring to org.spdl4j.records;
    exports org.spdl4j.engine.runtime to org.spdl4j.records;
}
