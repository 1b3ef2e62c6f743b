package io.freshet.worker.connector.feed;

import java.util.List;

/** Told of each feed that was read only after healing (for the metric; the parse is {@code ok}). */
@FunctionalInterface
public interface ParseObserver {

  /** Nobody listens. */
  ParseObserver NONE = fixes -> {};

  /**
   * A feed was read after these fixes ({@code encoding}, {@code junk_before_prolog}, {@code
   * doctype}, {@code control_characters}, {@code html_entities}, {@code bare_ampersands}, {@code
   * content_after_root}, {@code unclosed_html}, {@code undeclared_prefixes}).
   */
  void recovered(List<String> fixes);
}
