package io.tlogsim.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a host request lands on a RAID's members, and in what order (pure arithmetic, no state).
 *
 * <p>Data is cut into strips of {@code stripeBytes}; strip u of the array goes to:
 * <ul>
 *   <li>RAID 0: member u mod n, at row u / n.</li>
 *   <li>RAID 1: every member holds everything; a read goes to one mirror, a write to all.</li>
 *   <li>RAID 10: mirrored pair u mod (n/2) (members 2p and 2p+1), at row u / (n/2).</li>
 *   <li>RAID 5 and 6: rows of n-1 (n-2) data strips and rotating parity, left-symmetric: row r's parity P is on
 *       member n-1-(r mod n), RAID 6's second parity Q on the next member, and the row's data strips follow.</li>
 * </ul>
 * A write to RAID 5 or 6 that covers whole rows writes their data and parity at once; a smaller one is a
 * read-modify-write: first read the old data and old parity (phase 0), then write the new data and parity (phase 1),
 * which is the write penalty of 4 (RAID 5) and 6 (RAID 6) back-end I/Os for one small write. Pieces that follow each
 * other on one member are merged into one member I/O.
 */
final class RaidLayout {
  /** One member I/O of a plan. Phase-1 I/Os start when every phase-0 one has completed. */
  record MemberIo(int member, int kind, long offset, long bytes, int phase) {}

  /** Picks the mirror a read goes to, from members {@code first}, {@code first + step}, ... (count of them). */
  interface MirrorChooser {
    int choose(int first, int step, int count);
  }

  private final RaidSpec spec;
  private final int n;
  private final long stripe;

  RaidLayout(RaidSpec spec) {
    this.spec = spec;
    this.n = spec.members();
    this.stripe = spec.stripeBytes();
  }

  /** The member I/Os of one host request, merged, in issue order. */
  List<MemberIo> plan(int kind, long offset, long bytes, MirrorChooser mirrors) {
    List<MemberIo> out = new ArrayList<>();
    if (kind == DeviceProtocol.FLUSH) {
      for (int m = 0; m < n; m++) out.add(new MemberIo(m, kind, 0, 0, 0));
      return out;
    }
    long capacity = spec.capacityBytes();
    long start = Math.floorMod(offset, capacity);
    if (bytes <= 0) { // nothing to move: one member still answers, so that every request completes through a member
      out.add(new MemberIo(0, kind, 0, 0, 0));
      return out;
    }
    boolean read = kind == DeviceProtocol.READ;
    long end = Math.min(capacity, start + bytes); // a request past the end is cut there
    switch (spec.level()) {
      case 0 -> forStrips(start, end, (u, within, len) ->
          out.add(new MemberIo((int) (u % n), kind, (u / n) * stripe + within, len, 0)));
      case 1 -> {
        if (read) {
          out.add(new MemberIo(mirrors.choose(0, 1, n), kind, start, end - start, 0));
        } else {
          for (int m = 0; m < n; m++) out.add(new MemberIo(m, kind, start, end - start, 0));
        }
      }
      case 10 -> {
        int pairs = n / 2;
        forStrips(start, end, (u, within, len) -> {
          int pair = (int) (u % pairs);
          long at = (u / pairs) * stripe + within;
          if (read) {
            out.add(new MemberIo(mirrors.choose(2 * pair, 1, 2), kind, at, len, 0));
          } else {
            out.add(new MemberIo(2 * pair, kind, at, len, 0));
            out.add(new MemberIo(2 * pair + 1, kind, at, len, 0));
          }
        });
      }
      default -> parity(kind, start, end, out);
    }
    return merge(out);
  }

  private interface StripVisitor {
    void visit(long strip, long within, long len);
  }

  private void forStrips(long start, long end, StripVisitor v) {
    for (long x = start; x < end; ) {
      long u = x / stripe, within = x % stripe, len = Math.min(stripe - within, end - x);
      v.visit(u, within, len);
      x += len;
    }
  }

  int parityMember(long row) {
    return (int) (n - 1 - row % n);
  }

  /** Member of data strip {@code idx} of row {@code row}. */
  int dataMember(long row, int idx) {
    int parities = spec.level() == 6 ? 2 : 1;
    return (parityMember(row) + parities + idx) % n;
  }

  private void parity(int kind, long start, long end, List<MemberIo> out) {
    int d = spec.dataMembers();
    boolean read = kind == DeviceProtocol.READ;
    int parities = spec.level() == 6 ? 2 : 1;
    long rowBytes = d * stripe;
    for (long x = start; x < end; ) {
      long row = x / rowBytes;
      long rowEnd = Math.min(end, (row + 1) * rowBytes);
      long base = row * stripe;
      if (read) {
        forStrips(x, rowEnd, (u, within, len) ->
            out.add(new MemberIo(dataMember(row, (int) (u % d)), kind, base + within, len, 0)));
      } else if (x == row * rowBytes && rowEnd == (row + 1) * rowBytes) { // a whole row: data and parity at once
        for (int i = 0; i < d; i++) out.add(new MemberIo(dataMember(row, i), kind, base, stripe, 0));
        for (int p = 0; p < parities; p++) out.add(new MemberIo((parityMember(row) + p) % n, kind, base, stripe, 0));
      } else { // read-modify-write
        long[] span = {stripe, 0}; // the part of the strips touched: parity is read and written over it
        List<MemberIo> writes = new ArrayList<>();
        forStrips(x, rowEnd, (u, within, len) -> {
          int m = dataMember(row, (int) (u % d));
          out.add(new MemberIo(m, DeviceProtocol.READ, base + within, len, 0));
          writes.add(new MemberIo(m, kind, base + within, len, 1));
          span[0] = Math.min(span[0], within);
          span[1] = Math.max(span[1], within + len);
        });
        for (int p = 0; p < parities; p++) {
          int m = (parityMember(row) + p) % n;
          out.add(new MemberIo(m, DeviceProtocol.READ, base + span[0], span[1] - span[0], 0));
          writes.add(new MemberIo(m, kind, base + span[0], span[1] - span[0], 1));
        }
        out.addAll(writes);
      }
      x = rowEnd;
    }
  }

  /** Merges each I/O into the previous one of the same member, kind and phase when it continues it. */
  private List<MemberIo> merge(List<MemberIo> ios) {
    if (ios.size() < 2) return ios;
    List<MemberIo> out = new ArrayList<>(ios.size());
    int[] last = new int[n * 2 * 8];
    java.util.Arrays.fill(last, -1);
    for (MemberIo io : ios) {
      int key = (io.member() * 2 + io.phase()) * 8 + io.kind();
      int i = last[key];
      if (i >= 0) {
        MemberIo prev = out.get(i);
        if (prev.offset() + prev.bytes() == io.offset()) {
          out.set(i, new MemberIo(prev.member(), prev.kind(), prev.offset(), prev.bytes() + io.bytes(), prev.phase()));
          continue;
        }
      }
      last[key] = out.size();
      out.add(io);
    }
    return out;
  }
}
