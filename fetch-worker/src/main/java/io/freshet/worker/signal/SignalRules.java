package io.freshet.worker.signal;

import java.util.List;

/**
 * Keyword rules, tried in this order after structure: a title or body containing one of {@code
 * eventWords} is an event, {@code askWords} an ask, {@code giveWords} a give; anything else is
 * informative. Words match whole, case-insensitively; a phrase matches as written.
 */
public record SignalRules(List<String> eventWords, List<String> askWords, List<String> giveWords) {

  public SignalRules {
    eventWords = List.copyOf(eventWords);
    askWords = List.copyOf(askWords);
    giveWords = List.copyOf(giveWords);
  }
}
