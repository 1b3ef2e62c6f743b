package io.freshet.stack.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A Dockerfile's instructions (continuation lines joined, comments dropped), with what the checks
 * ask of it: base image, user, exposed ports, health check, environment, copied files.
 *
 * @param path the file
 * @param instructions each instruction as {@code [KEYWORD, arguments]}
 */
record Dockerfile(Path path, List<String[]> instructions) {

  static Dockerfile read(Path path) throws IOException {
    List<String[]> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : Files.readAllLines(path)) {
      String trimmed = line.strip();
      if (current.isEmpty() && (trimmed.isEmpty() || trimmed.startsWith("#"))) {
        continue;
      }
      if (!current.isEmpty() && trimmed.startsWith("#")) {
        continue; // a comment inside a continued instruction
      }
      if (trimmed.endsWith("\\")) {
        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
        continue;
      }
      current.append(trimmed);
      String instruction = current.toString().strip();
      current.setLength(0);
      int space = instruction.indexOf(' ');
      out.add(
          new String[] {
            instruction.substring(0, space).toUpperCase(Locale.ROOT),
            instruction.substring(space + 1).strip()
          });
    }
    return new Dockerfile(path, out);
  }

  List<String> all(String keyword) {
    return instructions.stream().filter(i -> i[0].equals(keyword)).map(i -> i[1]).toList();
  }

  /** The image the final stage starts from. */
  String baseImage() {
    List<String> from = all("FROM");
    String last = from.getLast();
    return last.split("\\s+")[0];
  }

  /** The user the container runs as (the last USER), or null. */
  String user() {
    List<String> users = all("USER");
    return users.isEmpty() ? null : users.getLast();
  }

  List<Integer> exposedPorts() {
    List<Integer> ports = new ArrayList<>();
    for (String e : all("EXPOSE")) {
      for (String p : e.split("\\s+")) {
        ports.add(Integer.parseInt(p.split("/")[0]));
      }
    }
    return ports;
  }

  /** The HEALTHCHECK instruction's arguments, or null. */
  String healthcheck() {
    List<String> h = all("HEALTHCHECK");
    return h.isEmpty() ? null : h.getLast();
  }

  /** ENV settings ({@code KEY=VALUE ...} and the legacy {@code KEY VALUE} form). */
  Map<String, String> env() {
    Map<String, String> env = new LinkedHashMap<>();
    for (String e : all("ENV")) {
      if (e.contains("=")) {
        for (String pair : e.split("\\s+(?=[A-Za-z_][A-Za-z0-9_]*=)")) {
          int eq = pair.indexOf('=');
          env.put(pair.substring(0, eq), unquote(pair.substring(eq + 1)));
        }
      } else {
        String[] kv = e.split("\\s+", 2);
        env.put(kv[0], kv.length > 1 ? unquote(kv[1]) : "");
      }
    }
    return env;
  }

  /** Sources of every COPY (not {@code --from} another stage). */
  List<String> copiedSources() {
    List<String> sources = new ArrayList<>();
    for (String c : all("COPY")) {
      List<String> parts = new ArrayList<>(List.of(c.split("\\s+")));
      if (parts.stream().anyMatch(p -> p.startsWith("--from="))) {
        continue;
      }
      parts.removeIf(p -> p.startsWith("--"));
      sources.addAll(parts.subList(0, parts.size() - 1));
    }
    return sources;
  }

  private static String unquote(String v) {
    return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")
        ? v.substring(1, v.length() - 1)
        : v;
  }
}
