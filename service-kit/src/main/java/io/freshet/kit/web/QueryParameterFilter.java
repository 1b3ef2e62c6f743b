package io.freshet.kit.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses, with a 400 naming the parameter, a query string the container would otherwise mangle or
 * pass on: a percent-encoding that is not UTF-8 ({@code %FF}; Tomcat drops such parameters
 * silently) and a NUL character ({@code %00}) in a parameter's name or value, which PostgreSQL
 * cannot store and would answer with a 500 — on unauthenticated reads too. Bodies are checked where
 * they are parsed.
 */
public final class QueryParameterFilter extends OncePerRequestFilter {

  /** The message of a NUL character, after the field or parameter's name and a colon. */
  public static final String NUL_MESSAGE =
      "contains a NUL character (U+0000), which is not allowed";

  private final ProblemWriter problems;

  public QueryParameterFilter(ProblemWriter problems) {
    this.problems = problems;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Optional<String> problem = problem(request.getQueryString());
    if (problem.isEmpty()) {
      for (Map.Entry<String, String[]> p : request.getParameterMap().entrySet()) {
        boolean bad = p.getKey().indexOf('\0') >= 0;
        for (String v : p.getValue()) {
          bad |= v != null && v.indexOf('\0') >= 0;
        }
        if (bad) {
          problem = Optional.of(shown(p.getKey()) + ": " + NUL_MESSAGE);
          break;
        }
      }
    }
    if (problem.isPresent()) {
      problems.write(response, HttpStatus.BAD_REQUEST, problem.get());
      return;
    }
    chain.doFilter(request, response);
  }

  /** The first parameter of a raw query string that does not decode, or holds a NUL, if any. */
  static Optional<String> problem(String query) {
    if (query == null || query.isEmpty()) {
      return Optional.empty();
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String rawName = eq < 0 ? pair : pair.substring(0, eq);
      String rawValue = eq < 0 ? "" : pair.substring(eq + 1);
      String name;
      try {
        name = decode(rawName);
      } catch (IllegalArgumentException e) {
        return Optional.of("query parameter name: " + e.getMessage());
      }
      try {
        String value = decode(rawValue);
        if (name.indexOf('\0') >= 0 || value.indexOf('\0') >= 0) {
          return Optional.of(shown(name) + ": " + NUL_MESSAGE);
        }
      } catch (IllegalArgumentException e) {
        return Optional.of(shown(name) + ": " + e.getMessage());
      }
    }
    return Optional.empty();
  }

  private static String decode(String raw) {
    var bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= raw.length()) {
          throw new IllegalArgumentException("has an incomplete percent-encoding");
        }
        int hi = Character.digit(raw.charAt(i + 1), 16);
        int lo = Character.digit(raw.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("has an invalid percent-encoding");
        }
        bytes.write(hi * 16 + lo);
        i += 2;
      } else if (c == '+') {
        bytes.write(' ');
      } else if (c < 0x80) {
        bytes.write(c);
      } else {
        int cp = raw.codePointAt(i);
        byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        bytes.write(b, 0, b.length);
        i += Character.charCount(cp) - 1;
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("is not valid percent-encoded UTF-8");
    }
  }

  private static String shown(String name) {
    String s = name.replace('\0', '?');
    return s.length() > 64 ? s.substring(0, 64) + "…" : s;
  }
}
