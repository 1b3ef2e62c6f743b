package io.freshet.scheduler.schedule;

import java.time.Instant;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** How a source's {@code cursor_json} changes after a fetch. Pure. */
final class Cursors {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private Cursors() {}

  /**
   * After {@code ok}/{@code partial} (with the worker's new cursor) or {@code not_modified} (no new
   * cursor): the new cursor's entries replace the old ones, and {@code last_fetch_at} becomes the
   * fetch time (ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md): updated only after
   * a successful fetch).
   */
  static String afterSuccess(
      String oldCursorJson, Map<String, String> newCursor, Instant fetchedAt) {
    ObjectNode cursor =
        oldCursorJson == null || oldCursorJson.isBlank()
            ? JSON.createObjectNode()
            : (ObjectNode) JSON.readTree(oldCursorJson);
    if (newCursor != null) {
      // jsonb refuses U+0000 (as \u0000): a cursor value with one would fail the outcome on every
      // retry. Replaced, the value no longer matches the source's, which costs one full fetch.
      newCursor.forEach((k, v) -> cursor.put(storable(k), storable(v)));
    }
    cursor.put("last_fetch_at", fetchedAt.toString());
    return JSON.writeValueAsString(cursor);
  }

  private static String storable(String s) {
    return s == null ? null : s.replace('\0', '\uFFFD');
  }
}
