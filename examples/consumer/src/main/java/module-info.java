/**
 * A library user's program, as a named module: it compiles against the exported API of the library modules only.
 */
module org.spdl4j.consumer {
    requires org.spdl4j.engine;
    requires org.spdl4j.media;
}
