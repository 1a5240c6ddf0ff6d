/**
 * spdl4j's pipeline engine: {@link org.spdl4j.engine.PipelineBuilder} describes a pipeline,
 * {@link org.spdl4j.engine.Pipeline} runs it; sources, statistics, stage profiling, CPU affinity and the loaders.
 *
 * <p>Not exported: {@code org.spdl4j.engine.ring} (the rings between stages) and {@code org.spdl4j.engine.runtime}
 * (the workers and their threads) are the engine's internals and change freely; nor is
 * {@code org.spdl4j.engine.record}, which moves to an artifact of its own.
 *
 * <p>On the module path it needs {@code --enable-native-access=org.spdl4j.engine} (CPU affinity's FFM downcalls)
 * besides what {@code org.spdl4j.offheap} needs.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // HdrHistogram has no module name
module org.spdl4j.engine {
    requires transitive org.spdl4j.offheap;
    requires com.lmax.disruptor;
    requires transitive HdrHistogram; // stats hand out Histograms; the name comes from the jar's file name
    requires org.slf4j;
    requires java.management;
    requires jdk.management;
    requires java.net.http;
    requires transitive jdk.jfr; // StageStatsEvent is a JFR event

    exports org.spdl4j.engine;
    exports org.spdl4j.engine.affinity;
    exports org.spdl4j.engine.loader;
    exports org.spdl4j.engine.profile;
    exports org.spdl4j.engine.source;
    exports org.spdl4j.engine.source.http;
    exports org.spdl4j.engine.source.tar;
    exports org.spdl4j.engine.stats;
    // org.spdl4j.loader (the loader) is exported as soon as it holds a type: javac refuses to export a package that
    // has only its package-info.
}
