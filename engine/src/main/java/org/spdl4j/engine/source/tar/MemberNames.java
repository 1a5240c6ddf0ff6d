package org.spdl4j.engine.source.tar;

/**
 * Validation of tar member names, and the WebDataset split of a name into key and extension. Stateless.
 */
final class MemberNames {
    private MemberNames() {
    }

    /**
     * Rejects names that would escape an extraction folder; strips leading {@code ./}.
     *
     * @return the cleaned name
     */
    static String check(String shard, long offset, String name) {
        String n = name;
        while (n.startsWith("./")) {
            n = n.substring(2);
        }
        if (n.isEmpty() || n.indexOf('\0') >= 0) {
            throw new TarFormatException(shard, offset, "empty or NUL-containing member name '" + name + "'", name, null);
        }
        if (n.startsWith("/") || n.startsWith("\\") || (n.length() > 1 && n.charAt(1) == ':')) {
            throw new TarFormatException(shard, offset, "absolute member name '" + name + "' rejected: names must be "
                    + "relative to the archive", name, null);
        }
        for (String segment : n.split("[/\\\\]")) {
            if (segment.equals("..")) {
                throw new TarFormatException(shard, offset, "member name '" + name + "' escapes the archive with '..';"
                        + " rejected", name, null);
            }
        }
        return n;
    }

    /**
     * {@return whether a name is the archive's own root: {@code ./} or {@code .}, which {@code tar -C dir .} writes as
     * the first member (a directory) and which names nothing to read}
     *
     * @param name the raw member name
     */
    static boolean isArchiveRoot(String name) {
        String n = name;
        while (n.startsWith("./")) {
            n = n.substring(2);
        }
        return n.isEmpty() || n.equals(".");
    }

    /** The index of the dot that separates key and extension (the first dot of the last path segment), or -1. */
    static int keyEnd(String name) {
        int slash = name.lastIndexOf('/');
        int dot = name.indexOf('.', slash + 1);
        return dot > slash + 1 && dot < name.length() - 1 ? dot : -1;
    }
}
