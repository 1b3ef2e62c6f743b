package io.freshet.worker.signal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link Keywords} replaced a regular expression; the expression is kept here as the reference and
 * both must agree on random texts: words at the edges, inside other words, next to digits, accented
 * and supplementary letters, punctuation; phrases; words sharing a first letter.
 */
class KeywordsTest {

  private static Pattern reference(List<String> words) {
    String alternatives =
        words.stream()
            .filter(w -> w != null && !w.isBlank())
            .map(w -> Pattern.quote(w.trim().toLowerCase(Locale.ROOT)))
            .collect(Collectors.joining("|"));
    return Pattern.compile("(?<![\\p{L}\\p{N}])(?:" + alternatives + ")(?![\\p{L}\\p{N}])");
  }

  @Test
  void examples() {
    Keywords words = Keywords.of(List.of("meetup", " Join Us ", "save the date", "", "c++"));
    assertThat(words.foundIn("come to the meetup!")).isTrue();
    assertThat(words.foundIn("meetups are fun")).isFalse();
    assertThat(words.foundIn("ameetup")).isFalse();
    assertThat(words.foundIn("meetup2")).isFalse();
    assertThat(words.foundIn("please join us.")).isTrue();
    assertThat(words.foundIn("save the dates")).isFalse();
    assertThat(words.foundIn("learn c++ today")).isTrue();
    assertThat(words.foundIn("émeetup")).isFalse();
    assertThat(Keywords.of(List.of(" ", ""))).isNull();
  }

  private static final String[] WORDS = {
    "meetup",
    "meet",
    "join us",
    "rsvp",
    "save the date",
    "for sale",
    "free",
    "c++",
    "é-vent",
    "1st",
  };

  private static final String[] PIECES = {
    "meetup",
    "meet",
    "meetups",
    "join us",
    "join",
    " us",
    "rsvp",
    "save the date",
    "save the",
    "for sale",
    "free",
    "freedom",
    "c++",
    "é-vent",
    "1st",
    " ",
    "\n",
    ".",
    ",",
    "-",
    "a",
    "z",
    "é",
    "1",
    "_",
    "+",
    new String(Character.toChars(0x1D400)),
    new String(Character.toChars(0x1D7CE)),
    "\u00a0",
    "ⅷ",
  };

  @Test
  void sameAsTheRegularExpressionOnRandomTexts() {
    Random random = new Random(20261123);
    for (int n = 0; n < 30_000; n++) {
      List<String> words = new ArrayList<>();
      int count = 1 + random.nextInt(4);
      for (int k = 0; k < count; k++) {
        words.add(WORDS[random.nextInt(WORDS.length)]);
      }
      StringBuilder s = new StringBuilder();
      int pieces = random.nextInt(12);
      for (int k = 0; k < pieces; k++) {
        s.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String text = s.toString();
      assertThat(Keywords.of(words).foundIn(text))
          .as("%s in [%s]", words, text)
          .isEqualTo(reference(words).matcher(text).find());
    }
  }
}
