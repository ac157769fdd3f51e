package org.libiprof;

import java.util.List;

/**
 * What a streaming read found besides the elements.
 * @param version the document's "version" ("" if it had none before a stop)
 * @param diagnostics the warnings and (lenient reads) rule violations kept
 * @param diagnosticsDropped how many more were found than kept
 * @param stopped true when a callback threw {@link StopRead}
 */
public record ReadResult(String version, List<Report> diagnostics, long diagnosticsDropped, boolean stopped) {
}
