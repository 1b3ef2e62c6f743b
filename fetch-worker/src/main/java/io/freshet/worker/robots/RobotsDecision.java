package io.freshet.worker.robots;

import java.util.Locale;

/**
 * Whether robots.txt lets the worker fetch one source, and why.
 *
 * @param verdict the decision
 * @param robotsUrl the robots.txt consulted (scheme, host, port, path), or null when not applied
 * @param reason one sentence for people: the rule, the status, the option that waived it
 */
public record RobotsDecision(Verdict verdict, String robotsUrl, String reason) {

  /** The decisions, also the {@code decision} tag of {@code freshet.worker.robots}. */
  public enum Verdict {
    /** robots.txt allows the URL, or there is none (4xx): fetched. */
    ALLOWED,
    /** robots.txt disallows the URL for the worker's product token: not fetched. */
    DISALLOWED,
    /** robots.txt could not be read (5xx, 429, no answer): everything disallowed for a while. */
    UNREACHABLE_DISALLOWED,
    /** The source's own option {@code "robots": "ignore"} waives it: fetched without a check. */
    WAIVED,
    /** Its connector does not obey robots.txt by default, and the source does not ask to. */
    NOT_APPLIED;

    /** The tag and CLI form: {@code unreachable_disallowed}. */
    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** May the source's URL be requested. */
  public boolean permits() {
    return verdict != Verdict.DISALLOWED && verdict != Verdict.UNREACHABLE_DISALLOWED;
  }
}
