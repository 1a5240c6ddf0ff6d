/**
 * Internal to spdl4j: the loader's stages, item carrier, slot table and progress record. Not exported; may change
 * without notice. Users build loaders through {@link org.spdl4j.loader.Loader#builder()}.
 */
package org.spdl4j.loader.internal;
