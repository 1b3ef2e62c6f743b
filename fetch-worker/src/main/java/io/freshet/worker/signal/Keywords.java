package io.freshet.worker.signal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A fixed set of lower-case words and phrases, found whole in a lower-case text: not preceded and
 * not followed by a letter or digit ({@code \p{L}}, {@code \p{N}}). It answers what {@code
 * (?<![\p{L}\p{N}])(?:w1|w2|...)(?![\p{L}\p{N}])} answered with {@code find()} — the character
 * before a match is looked at as a regular expression's look-behind does, one {@code char} — in one
 * pass with a look-up by first character, instead of trying every alternative at every position
 * (that expression was the worker's largest per-item cost).
 */
final class Keywords {

  /** Words by first character: an ASCII one indexes the array, any other the map. */
  private final String[][] byAsciiChar;

  private final Map<Character, String[]> byOtherChar;

  private Keywords(String[][] byAsciiChar, Map<Character, String[]> byOtherChar) {
    this.byAsciiChar = byAsciiChar;
    this.byOtherChar = byOtherChar;
  }

  /** Blank words are ignored; null when none is left (nothing can match). */
  static Keywords of(List<String> words) {
    Map<Character, List<String>> grouped = new HashMap<>();
    for (String w : words) {
      if (w == null || w.isBlank()) {
        continue;
      }
      String word = w.trim().toLowerCase(Locale.ROOT);
      grouped.computeIfAbsent(word.charAt(0), c -> new ArrayList<>()).add(word);
    }
    if (grouped.isEmpty()) {
      return null;
    }
    String[][] byAsciiChar = new String[128][];
    Map<Character, String[]> byOtherChar = new HashMap<>();
    grouped.forEach(
        (c, list) -> {
          if (c < 128) {
            byAsciiChar[c] = list.toArray(String[]::new);
          } else {
            byOtherChar.put(c, list.toArray(String[]::new));
          }
        });
    return new Keywords(byAsciiChar, byOtherChar);
  }

  /** Whether one of the words occurs whole in {@code text}. */
  boolean foundIn(String text) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      String[] candidates =
          c < 128 ? byAsciiChar[c] : byOtherChar.isEmpty() ? null : byOtherChar.get(c);
      if (candidates == null || (i > 0 && isLetterOrNumber(Character.codePointAt(text, i - 1)))) {
        continue;
      }
      for (String word : candidates) {
        int end = i + word.length();
        if (text.startsWith(word, i)
            && (end == n || !isLetterOrNumber(Character.codePointAt(text, end)))) {
          return true;
        }
      }
    }
    return false;
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
