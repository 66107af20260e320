package io.tlogsim.kernel;

import java.util.List;

/**
 * The facts recorded during one window, sorted by (time, component), each component's facts of one instant in the
 * order it recorded them. Batches reach the sink in window order; facts of later windows can be earlier in time than
 * facts of earlier ones (windows of different components overlap), so a reader that needs time order sorts.
 */
public record FactBatch(long window, List<RecordedFact> facts) implements CborSerializable {}
