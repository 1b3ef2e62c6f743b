package io.freshet.worker.signal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ranked lists of lower-case words and phrases, found whole in a lower-case text: not preceded and
 * not followed by a letter or digit ({@code \p{L}}, {@code \p{N}}). {@link #bestRankIn} gives the
 * first list that has a word in the text — what trying {@code (?<![\p{L}\p{N}])(?:w1|w2|...)
 * (?![\p{L}\p{N}])} per list, in order, with {@code find()} gave (the character before a match is
 * looked at as a look-behind does, one {@code char}) — in one pass over the text with a look-up by
 * first character, instead of every alternative of every list at every position (those expressions
 * were the worker's largest per-item cost).
 */
final class Keywords {

  /** A word and the index of the first list it is in. */
  private record Word(String text, int rank) {}

  /** Words by first character: an ASCII one indexes the array, any other the map. */
  private final Word[][] byAsciiChar;

  private final Map<Character, Word[]> byOtherChar;

  private Keywords(Word[][] byAsciiChar, Map<Character, Word[]> byOtherChar) {
    this.byAsciiChar = byAsciiChar;
    this.byOtherChar = byOtherChar;
  }

  /** The lists in rank order; blank words are ignored, a word in two lists has the first rank. */
  static Keywords of(List<List<String>> ranked) {
    Map<String, Integer> rankOf = new LinkedHashMap<>();
    for (int rank = 0; rank < ranked.size(); rank++) {
      for (String w : ranked.get(rank)) {
        if (w != null && !w.isBlank()) {
          rankOf.putIfAbsent(w.trim().toLowerCase(Locale.ROOT), rank);
        }
      }
    }
    Map<Character, List<Word>> grouped = new HashMap<>();
    rankOf.forEach(
        (text, rank) ->
            grouped
                .computeIfAbsent(text.charAt(0), c -> new ArrayList<>())
                .add(new Word(text, rank)));
    Word[][] byAsciiChar = new Word[128][];
    Map<Character, Word[]> byOtherChar = new HashMap<>();
    grouped.forEach(
        (c, list) -> {
          if (c < 128) {
            byAsciiChar[c] = list.toArray(Word[]::new);
          } else {
            byOtherChar.put(c, list.toArray(Word[]::new));
          }
        });
    return new Keywords(byAsciiChar, byOtherChar);
  }

  /** The lowest rank of a word found whole in {@code text}, or -1 when none is. */
  int bestRankIn(String text) {
    int best = -1;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      Word[] candidates =
          c < 128 ? byAsciiChar[c] : byOtherChar.isEmpty() ? null : byOtherChar.get(c);
      if (candidates == null || (i > 0 && isLetterOrNumber(Character.codePointAt(text, i - 1)))) {
        continue;
      }
      for (Word word : candidates) {
        if ((best < 0 || word.rank() < best) && foundAt(text, i, word.text())) {
          best = word.rank();
          if (best == 0) {
            return 0;
          }
        }
      }
    }
    return best;
  }

  private static boolean foundAt(String text, int i, String word) {
    int end = i + word.length();
    return text.startsWith(word, i)
        && (end == text.length() || !isLetterOrNumber(Character.codePointAt(text, end)));
  }

  /** {@code [\p{L}\p{N}]}. */
  private static boolean isLetterOrNumber(int codePoint) {
    return switch (Character.getType(codePoint)) {
      case Character.UPPERCASE_LETTER,
          Character.LOWERCASE_LETTER,
          Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER,
          Character.OTHER_LETTER,
          Character.DECIMAL_DIGIT_NUMBER,
          Character.LETTER_NUMBER,
          Character.OTHER_NUMBER ->
          true;
      default -> false;
    };
  }
}
