package org.spdl4j.loader.internal;

/** Loader items for the internal stage tests. */
final class TestItems {
    private TestItems() {
    }

    /** {@return an item of {@code items} naming a sample at a position of epoch 0} */
    static LoaderItem named(LoaderItemPool items, String key, long position) {
        LoaderItem item = items.take();
        item.key = key;
        item.position = position;
        return item;
    }
}
