package io.tlogsim.database.logspace;

import io.tlogsim.kernel.CborSerializable;
import java.util.List;

/** One log file on one device, large enough for the whole run: log offset o is device offset base + o. */
public final class LinearLogSpace implements LogSpace {
  private final LogFile file;
  private final long baseOffset;

  public LinearLogSpace(int fileId, String name, int device, long baseOffset) {
    this.file = new LogFile(fileId, name, device);
    this.baseOffset = baseOffset;
  }

  @Override
  public List<Segment> place(long logOffset, long bytes) {
    return List.of(new Segment(file.device(), baseOffset + logOffset, file.fileId(), bytes));
  }

  @Override
  public boolean reserve(Host host, long logEnd) {
    return true;
  }

  @Override
  public List<LogFile> files() {
    return List.of(file);
  }

  @Override
  public Object snapshot() {
    return new Stateless();
  }

  @Override
  public void restore(Object snapshot) {}

  public record Stateless() implements CborSerializable {}
}
