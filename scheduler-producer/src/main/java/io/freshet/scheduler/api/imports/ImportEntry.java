package io.freshet.scheduler.api.imports;

import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * One source of a bulk import, as a create body.
 *
 * @param label where it came from, prefixed to its error messages ({@code line 3}, {@code outline
 *     7})
 * @param warnings what was changed to make it importable (e.g. a truncated title), each prefixed
 *     with the label
 */
record ImportEntry(String label, JsonNode body, List<String> warnings) {

  ImportEntry {
    warnings = List.copyOf(warnings);
  }

  ImportEntry(String label, JsonNode body) {
    this(label, body, List.of());
  }
}
