package io.tlogsim.cli;

import io.tlogsim.kinds.commitpath.PolicyWords;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.Text;
import java.util.ArrayList;
import java.util.List;

/** "note" lines before a run: settings that do nothing a user would expect (PolicyWords.notes). */
final class SettingNotes {
  private SettingNotes() {}

  /** The notes themselves, one sentence each. */
  static List<String> of(Scenario s) {
    return s.params().asMap().containsKey("flushPolicy") ? PolicyWords.notes(s.params()) : List.of();
  }

  /** The notes as the human output prints them. */
  static List<String> lines(Scenario s) {
    List<String> out = new ArrayList<>();
    for (String n : of(s)) out.addAll(Text.paragraph("note", n));
    return out;
  }
}
