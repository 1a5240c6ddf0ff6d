package org.spdl4j.loader.internal;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;

/**
 * Words for an I/O failure, for messages that already name the path. NIO's file exceptions often carry only the path
 * as their message ({@code NoSuchFileException: /x/a.jpg}), so "read /x/a.jpg: " + its message says nothing; these
 * are described by their type instead ("no such file", "permission denied", ...).
 *
 * <p><b>Threading:</b> stateless. <b>Allocation:</b> may build a string; failure paths only.
 */
public final class IoMessages {
    private IoMessages() {
    }

    /**
     * What went wrong, without the path: by the exception's type for NIO's file exceptions, else its reason or
     * message, else its type's name.
     *
     * @param e the failure
     * @return a short description, such as {@code no such file}
     */
    public static String reason(IOException e) {
        if (e instanceof FileSystemException fs) {
            String typed = switch (fs) {
                case NoSuchFileException x -> "no such file";
                case AccessDeniedException x -> "permission denied";
                case NotDirectoryException x -> "not a directory";
                case FileAlreadyExistsException x -> "already exists";
                case DirectoryNotEmptyException x -> "directory not empty";
                case FileSystemLoopException x -> "a symbolic link loop";
                case NotLinkException x -> "not a symbolic link";
                default -> null;
            };
            if (typed != null) {
                return typed;
            }
            if (fs.getReason() != null && !fs.getReason().isBlank()) {
                return fs.getReason();
            }
            return fs.getClass().getSimpleName();
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    /**
     * What went wrong with the path it happened to, when the exception knows it ({@code /x/a.jpg: no such file}).
     *
     * @param e the failure
     * @return the description
     */
    public static String describe(IOException e) {
        if (e instanceof FileSystemException fs && fs.getFile() != null) {
            return fs.getFile() + (fs.getOtherFile() != null ? " -> " + fs.getOtherFile() : "") + ": " + reason(e);
        }
        return reason(e);
    }
}
