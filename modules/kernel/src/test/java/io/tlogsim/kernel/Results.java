package io.tlogsim.kernel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** Results compared by value (records holding arrays compare arrays by identity). */
final class Results {
  private static final JsonMapper JSON = new JsonMapper();

  private Results() {}

  static String of(RunOutcome out) {
    try {
      return JSON.writeValueAsString(out.results());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
