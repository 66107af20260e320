package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CriticalPathTest {

  /** Component i's report of its window, with its batches to {@code to}. */
  private static void report(CriticalPath path, int i, int[] to) {
    for (int d : to) path.batch(i, d);
    path.report(i);
  }

  /** One window: the clock grants it, the woken components run it and report. */
  private static void window(CriticalPath path, int[] woken, int[][] batchesTo) {
    path.grant();
    for (int i : woken) path.advance(i);
    for (int k = 0; k < woken.length; k++) report(path, woken[k], batchesTo[k]);
  }

  @Test
  void everyComponentOnTheClocksNodeCrossesNothing() {
    CriticalPath path = new CriticalPath(new int[] {0, 0, 0});
    path.grant();
    path.firstWindow();
    for (int w = 0; w < 5; w++) window(path, new int[] {0, 1, 2}, new int[][] {{1}, {2}, {0}});
    assertEquals(0, path.crossings());
  }

  @Test
  void aWindowOfAComponentOnAnotherNodeCrossesTwiceItsAdvanceAndItsReport() {
    // the clock's node 0 holds component 0; components 1 and 2 are on nodes 1 and 2
    CriticalPath path = new CriticalPath(new int[] {0, 1, 2});
    window(path, new int[] {0, 1, 2}, new int[][] {{}, {}, {}}); // the hello window: not counted
    path.grant();
    path.firstWindow();
    path.advance(1);
    report(path, 1, new int[] {2}); // 1 sends a batch to 2: on 2's path for its next window
    assertEquals(2, path.crossings());
    window(path, new int[] {0}, new int[][] {{}}); // only the clock's node works: nothing crossed
    assertEquals(2, path.crossings());
    window(path, new int[] {2}, new int[][] {{1}});
    assertEquals(4, path.crossings());
  }

  @Test
  void aBatchThatArrivesAfterTheAdvanceIsWaitedFor() {
    // node[1] = 1 sends to 2 on node 2 in the window where 2 is granted without crossing: component 2's next start
    // is the batch's arrival when that is later than its Advance's
    CriticalPath path = new CriticalPath(new int[] {0, 1, 1, 2});
    path.grant();
    path.firstWindow();
    path.advance(1); // 1 (node 1) starts after 1 crossing
    report(path, 1, new int[] {3}); // its batch to 3 (node 2) arrives after 2 crossings, its report at the clock at 2
    path.grant();
    path.advance(3); // Advance: 2 + 1 = 3, batch 2: starts at 3
    report(path, 3, new int[] {});
    assertEquals(4, path.crossings());
  }

  @Test
  void aNewIncarnationCountsFromItsFirstWindow() {
    CriticalPath path = new CriticalPath(new int[] {0, 1});
    path.grant();
    path.firstWindow();
    window(path, new int[] {1}, new int[][] {{0}});
    assertEquals(2, path.crossings());
    path.reset();
    assertEquals(0, path.crossings());
    window(path, new int[] {0, 1}, new int[][] {{}, {}}); // hello
    path.grant();
    path.firstWindow();
    path.advance(1);
    report(path, 1, new int[] {});
    assertEquals(2, path.crossings());
  }
}
