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
   * fetch time (ADR 0009: updated only after a successful fetch).
   */
  static String afterSuccess(
      String oldCursorJson, Map<String, String> newCursor, Instant fetchedAt) {
    ObjectNode cursor =
        oldCursorJson == null || oldCursorJson.isBlank()
            ? JSON.createObjectNode()
            : (ObjectNode) JSON.readTree(oldCursorJson);
    if (newCursor != null) {
      newCursor.forEach(cursor::put);
    }
    cursor.put("last_fetch_at", fetchedAt.toString());
    return JSON.writeValueAsString(cursor);
  }
}
