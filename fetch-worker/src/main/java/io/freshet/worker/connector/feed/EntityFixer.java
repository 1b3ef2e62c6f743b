package io.freshet.worker.connector.feed;

import com.rometools.rome.io.impl.XmlFixerReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What Rome's {@link XmlFixerReader} does to a feed before it is parsed — leading whitespace and
 * comments dropped, an HTML named entity written as its numeric reference ({@code &nbsp;} → {@code
 * &#160;}), a bare {@code &} made {@code &amp;} outside CDATA — as one pass over a string. Rome's
 * reader does it one character per call, each through a {@link StringReader} call of its own, which
 * made it a sixth of a feed's parse; here runs of plain characters are copied at once. The output
 * is the reader's, character for character, quirks included (the same state machine; {@code
 * EntityFixerTest} compares both on the corpus and on random markup). Which named entities are
 * rewritten is still Rome's own table: a name other than the four common ones is looked up through
 * Rome's reader.
 */
final class EntityFixer {

  private EntityFixer() {}

  /** The text as Rome's {@link XmlFixerReader} would read it out. */
  static String fix(String s) {
    return new Pass(s).run();
  }

  /** One run of the reader's state machine over {@code s}. */
  private static final class Pass {
    private final String s;
    private final int n;
    private int pos;
    private final StringBuilder out;
    private final StringBuilder buffer = new StringBuilder();
    private boolean cdata;

    Pass(String s) {
      this.s = s;
      this.n = s.length();
      this.out = new StringBuilder(n + 64);
    }

    private int next() {
      return pos < n ? s.charAt(pos++) : -1;
    }

    String run() {
      if (!trimStart()) {
        return "";
      }
      out.append(buffer);
      // state 0: characters copied as they come, until one that starts a state of its own
      while (true) {
        int start = pos;
        while (pos < n) {
          char c = s.charAt(pos);
          if (c == '&' || c == '<' || (c == ']' && cdata)) {
            break;
          }
          pos++;
        }
        out.append(s, start, pos);
        if (pos >= n) {
          return out.toString();
        }
        char c = s.charAt(pos++);
        buffer.setLength(0);
        buffer.append(c);
        if (c == '&') {
          entity();
        } else if (c == '<') {
          tagStart();
        } else {
          cdataEnd();
        }
        out.append(buffer);
      }
    }

    /**
     * The reader's trimming: leading whitespace and complete comments; false when nothing is left.
     */
    private boolean trimStart() {
      int state = 0;
      while (true) {
        int c = next();
        switch (state) {
          case 0 -> {
            if (c == -1) {
              return false;
            } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
              continue;
            } else if (c == '<') {
              state = 1;
              buffer.setLength(0);
              buffer.append((char) c);
            } else {
              buffer.setLength(0);
              buffer.append((char) c);
              return true;
            }
          }
          case 1 -> {
            if (c == -1) {
              return true;
            }
            buffer.append((char) c);
            if (c != '!') {
              return true;
            }
            state = 2;
          }
          case 2, 3 -> {
            if (c == -1) {
              return true;
            }
            buffer.append((char) c);
            if (c != '-') {
              return true;
            }
            state = state == 2 ? 3 : 4;
          }
          case 4 -> {
            if (c == -1) {
              return true;
            }
            buffer.append((char) c);
            if (c == '-') {
              state = 5;
            }
          }
          case 5 -> {
            if (c == -1) {
              return true;
            }
            buffer.append((char) c);
            state = c == '-' ? 6 : 4;
          }
          default -> { // 6: after "--" inside a comment
            if (c == -1) {
              return true;
            }
            if (c == '>') {
              buffer.setLength(0);
              state = 0;
            } else {
              buffer.append((char) c);
              state = 4;
            }
          }
        }
      }
    }

    /** After '&': a name and ';' rewritten by the table, else '&' made "&amp;" outside CDATA. */
    private void entity() {
      while (true) {
        int c = next();
        if (c == ';') {
          buffer.append(';');
          String coded = coded(buffer.toString());
          if (coded != null) {
            buffer.setLength(0);
            buffer.append(coded);
          }
          return;
        }
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#' || c >= '0' && c <= '9') {
          buffer.append((char) c);
          continue;
        }
        if (!cdata) {
          buffer.insert(1, "amp;");
        }
        if (c != -1) {
          buffer.append((char) c);
        }
        return;
      }
    }

    /** After '<': up to a space, '>', '/' or "<![CDATA[" (which starts CDATA), copied as is. */
    private void tagStart() {
      while (true) {
        int c = next();
        switch (c) {
          case -1 -> {
            return;
          }
          case ' ', '>', '/' -> {
            buffer.append((char) c);
            return;
          }
          case '[' -> {
            buffer.append('[');
            if ("<![CDATA[".contentEquals(buffer)) {
              cdata = true;
              return;
            }
          }
          default -> buffer.append((char) c);
        }
      }
    }

    /** After ']' inside CDATA: "]]>" (exactly) ends it. */
    private void cdataEnd() {
      while (true) {
        int c = next();
        switch (c) {
          case -1 -> {
            return;
          }
          case ']' -> buffer.append(']');
          case '>' -> {
            buffer.append('>');
            if ("]]>".contentEquals(buffer)) {
              cdata = false;
            }
            return;
          }
          default -> {
            buffer.append((char) c);
            return;
          }
        }
      }
    }
  }

  /** The numeric form Rome's table gives {@code entity} ("&name;"), or null to keep it. */
  private static String coded(String entity) {
    switch (entity) {
      case "&amp;":
        return "&#38;";
      case "&lt;":
        return "&#60;";
      case "&gt;":
        return "&#62;";
      case "&quot;":
        return "&#34;";
      default:
        break;
    }
    if (entity.length() < 3 || entity.charAt(1) == '#') {
      return null; // a numeric reference, or "&;": not in the table
    }
    String known = TABLE_HITS.get(entity);
    if (known != null) {
      return known;
    }
    // Rome's table, through its reader: "x" first, so that its trimming leaves the entity alone
    String read = readThroughRome("x" + entity).substring(1);
    if (read.equals(entity)) {
      return null;
    }
    TABLE_HITS.put(entity, read); // at most the table's 250-odd names
    return read;
  }

  /** Entities found in Rome's table so far, with their numeric form. */
  private static final Map<String, String> TABLE_HITS = new ConcurrentHashMap<>();

  private static String readThroughRome(String s) {
    try (var reader = new XmlFixerReader(new StringReader(s))) {
      var out = new StringBuilder();
      int c;
      while ((c = reader.read()) != -1) {
        out.append((char) c);
      }
      return out.toString();
    } catch (IOException e) {
      throw new UncheckedIOException("a string does not fail", e);
    }
  }
}
