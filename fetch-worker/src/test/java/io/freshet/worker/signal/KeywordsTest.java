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
 * {@link Keywords} replaced one regular expression per list, tried in list order; the expressions
 * are kept here as the reference and both must agree on random lists and texts: words at the edges,
 * inside other words, next to digits, accented and supplementary letters, punctuation; phrases;
 * words sharing a first letter; a word in two lists.
 */
class KeywordsTest {

  /** The first list whose expression finds a word, or -1 — what the classifier did before. */
  private static int reference(List<List<String>> ranked, String text) {
    for (int rank = 0; rank < ranked.size(); rank++) {
      String alternatives =
          ranked.get(rank).stream()
              .filter(w -> w != null && !w.isBlank())
              .map(w -> Pattern.quote(w.trim().toLowerCase(Locale.ROOT)))
              .collect(Collectors.joining("|"));
      if (alternatives.isEmpty()) {
        continue;
      }
      Pattern p = Pattern.compile("(?<![\\p{L}\\p{N}])(?:" + alternatives + ")(?![\\p{L}\\p{N}])");
      if (p.matcher(text).find()) {
        return rank;
      }
    }
    return -1;
  }

  @Test
  void examples() {
    Keywords words =
        Keywords.of(
            List.of(
                List.of("meetup", " Join Us ", "save the date", "", "c++"),
                List.of("looking for", "meetup"),
                List.of("for sale")));
    assertThat(words.bestRankIn("come to the meetup!")).isZero();
    assertThat(words.bestRankIn("meetups are fun")).isEqualTo(-1);
    assertThat(words.bestRankIn("ameetup")).isEqualTo(-1);
    assertThat(words.bestRankIn("meetup2")).isEqualTo(-1);
    assertThat(words.bestRankIn("please join us.")).isZero();
    assertThat(words.bestRankIn("save the dates")).isEqualTo(-1);
    assertThat(words.bestRankIn("learn c++ today")).isZero();
    assertThat(words.bestRankIn("émeetup")).isEqualTo(-1);
    assertThat(words.bestRankIn("for sale: looking for a buyer")).isEqualTo(1);
    assertThat(words.bestRankIn("for sale, then a meetup")).isZero();
    assertThat(words.bestRankIn("bike for sale")).isEqualTo(2);
    assertThat(Keywords.of(List.of(List.of(" ", ""))).bestRankIn("anything")).isEqualTo(-1);
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
  void sameAsTheRegularExpressionsOnRandomTexts() {
    Random random = new Random(20261123);
    for (int n = 0; n < 30_000; n++) {
      List<List<String>> ranked = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        List<String> words = new ArrayList<>();
        int count = random.nextInt(4);
        for (int k = 0; k < count; k++) {
          words.add(WORDS[random.nextInt(WORDS.length)]);
        }
        ranked.add(words);
      }
      StringBuilder s = new StringBuilder();
      int pieces = random.nextInt(12);
      for (int k = 0; k < pieces; k++) {
        s.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String text = s.toString();
      assertThat(Keywords.of(ranked).bestRankIn(text))
          .as("%s in [%s]", ranked, text)
          .isEqualTo(reference(ranked, text));
    }
  }
}
