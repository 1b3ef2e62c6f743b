package io.freshet.scheduler.api.imports;

import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.support.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Splits an NDJSON import into create bodies, one per non-blank line. Lines are numbered from 1 as
 * in the file, blank lines included.
 */
final class NdjsonImport {

  private NdjsonImport() {}

  /**
   * @throws ApiException 400 listing every line that is not JSON, 413 beyond {@code maxLines}
   */
  static List<ImportEntry> parse(String text, int maxLines, Json json) {
    List<String> lines = text.lines().collect(Collectors.toList());
    long sources = lines.stream().filter(l -> !l.isBlank()).count();
    if (sources > maxLines) {
      throw ApiException.tooLarge(
          "body: " + sources + " lines, more than the limit of " + maxLines + "; split the import");
    }
    List<ImportEntry> entries = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String label = "line " + (i + 1);
      try {
        entries.add(new ImportEntry(label, json.parse(line, label)));
      } catch (ApiException e) {
        errors.addAll(e.errors());
      }
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(ImportErrors.capped(errors));
    }
    if (entries.isEmpty()) {
      throw ApiException.badRequest("body: no sources; expected one JSON object per line");
    }
    return entries;
  }
}
