package io.freshet.scheduler.api.imports;

import java.util.ArrayList;
import java.util.List;

/** Keeps an import's error list readable: the first {@value #MAX} problems and a count. */
final class ImportErrors {

  static final int MAX = 100;

  private ImportErrors() {}

  static List<String> capped(List<String> errors) {
    if (errors.size() <= MAX) {
      return errors;
    }
    List<String> shown = new ArrayList<>(errors.subList(0, MAX));
    shown.add("… and " + (errors.size() - MAX) + " more problems not listed");
    return shown;
  }
}
