package io.freshet.worker.connector.feed;

import java.nio.charset.Charset;

/**
 * Bytes that are mostly UTF-8 with some windows-1252 among them (a windows-1252 document declared
 * UTF-8, or a UTF-8 one with text pasted in from elsewhere): each well-formed UTF-8 sequence is
 * read as UTF-8, every other byte as windows-1252 — as a feed reader shows them. A document written
 * wholly in windows-1252 reads as it would in windows-1252 (its non-ASCII bytes almost never form
 * UTF-8 sequences).
 */
final class Utf8OrWindows1252 {

  private static final char[] WINDOWS_1252 = table();

  private Utf8OrWindows1252() {}

  static String decode(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length);
    int i = 0;
    while (i < bytes.length) {
      int b = bytes[i] & 0xff;
      if (b < 0x80) {
        out.append((char) b);
        i++;
        continue;
      }
      int length = sequenceLength(bytes, i);
      if (length == 0) {
        out.append(WINDOWS_1252[b]);
        i++;
        continue;
      }
      int cp = b & (length == 2 ? 0x1f : length == 3 ? 0x0f : 0x07);
      for (int k = 1; k < length; k++) {
        cp = (cp << 6) | (bytes[i + k] & 0x3f);
      }
      out.appendCodePoint(cp);
      i += length;
    }
    return out.toString();
  }

  /**
   * {@code text} with each C1 control (U+0080-U+009F) as the windows-1252 character of that byte,
   * as browsers read {@code &#146;} and feed readers the text of a windows-1252 document once
   * converted as if it were ISO-8859-1 ("Don&#146;t" is "Don’t"); the same string when it has none.
   */
  static String c1AsWindows1252(String text) {
    if (text == null) {
      return null;
    }
    int n = text.length();
    int i = 0;
    while (i < n && (text.charAt(i) < 0x80 || text.charAt(i) > 0x9f)) {
      i++;
    }
    if (i == n) {
      return text;
    }
    char[] chars = text.toCharArray();
    for (; i < n; i++) {
      char c = chars[i];
      if (c >= 0x80 && c <= 0x9f) {
        chars[i] = WINDOWS_1252[c];
      }
    }
    return new String(chars);
  }

  /** {@code bytes} wholly as windows-1252. */
  static String windows1252(byte[] bytes) {
    char[] chars = new char[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      chars[i] = WINDOWS_1252[bytes[i] & 0xff];
    }
    return new String(chars);
  }

  /** The length of the well-formed UTF-8 sequence at {@code i} (RFC 3629), or 0. */
  private static int sequenceLength(byte[] bytes, int i) {
    int b = bytes[i] & 0xff;
    int length;
    int low = 0x80;
    int high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      length = 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      low = b == 0xe0 ? 0xa0 : 0x80; // no overlong form
      high = b == 0xed ? 0x9f : 0xbf; // no surrogate
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      low = b == 0xf0 ? 0x90 : 0x80;
      high = b == 0xf4 ? 0x8f : 0xbf; // nothing above U+10FFFF
    } else {
      return 0;
    }
    if (i + length > bytes.length) {
      return 0;
    }
    int second = bytes[i + 1] & 0xff;
    if (second < low || second > high) {
      return 0;
    }
    for (int k = 2; k < length; k++) {
      int c = bytes[i + k] & 0xff;
      if (c < 0x80 || c > 0xbf) {
        return 0;
      }
    }
    return length;
  }

  // windows-1252 as the WHATWG Encoding Standard has it: its five undefined bytes as the C1
  // controls of the same value (Java's decoder would give U+FFFD)
  private static char[] table() {
    char[] table = new char[256];
    String decoded = new String(allBytes(), Charset.forName("windows-1252"));
    for (int b = 0; b < 256; b++) {
      char c = decoded.charAt(b);
      table[b] = c == '\uFFFD' ? (char) b : c;
    }
    return table;
  }

  private static byte[] allBytes() {
    byte[] all = new byte[256];
    for (int b = 0; b < 256; b++) {
      all[b] = (byte) b;
    }
    return all;
  }
}
