package io.freshet.stack.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Checks before anything starts, each failing with one line a person can act on. */
public final class Preflight {

  private Preflight() {}

  /** The problems found, one line each; empty when the stack can start. */
  public static List<String> problems(StackSettings s) {
    List<String> out = new ArrayList<>();
    if (Runtime.version().feature() < 21) {
      out.add(
          "Java "
              + Runtime.version().feature()
              + " runs this launcher; Freshet needs 21+ (bin/find-java)");
    }
    Map<String, Integer> ports = new LinkedHashMap<>();
    ports.put("Kafka (FRESHET_KAFKA_PORT)", s.kafkaPort());
    ports.put("Kafka controller (FRESHET_CONTROLLER_PORT)", s.controllerPort());
    ports.put("PostgreSQL (FRESHET_POSTGRES_PORT)", s.postgresPort());
    ports.put("schema registry (FRESHET_REGISTRY_PORT)", s.registryPort());
    ports.put("demo web (FRESHET_DEMO_WEB_PORT)", s.demoWebPort());
    ports.put("scheduler-producer (FRESHET_SCHEDULER_PORT)", s.schedulerPort());
    ports.put("content-sink (FRESHET_SINK_PORT)", s.sinkPort());
    ports.put("stats-aggregator (FRESHET_STATS_PORT)", s.statsPort());
    ports.put("fetch-worker (FRESHET_WORKER_PORT)", s.workerPort());
    for (var e : List.copyOf(ports.entrySet())) {
      if (e.getKey().startsWith("scheduler")
          || e.getKey().startsWith("content")
          || e.getKey().startsWith("stats")
          || e.getKey().startsWith("fetch")) {
        ports.put(
            e.getKey().replace("(", "management port (1000 +"),
            Services.defaultManagementPort(e.getValue()));
      }
    }
    Map<Integer, String> seen = new LinkedHashMap<>();
    for (var e : ports.entrySet()) {
      String other = seen.putIfAbsent(e.getValue(), e.getKey());
      if (other != null) {
        out.add("port " + e.getValue() + " is set for both " + other + " and " + e.getKey());
      } else if (!portFree(e.getValue())) {
        out.add(
            "port "
                + e.getValue()
                + " for "
                + e.getKey()
                + " is already in use (another ./freshet up? set "
                + envName(e.getKey())
                + ")");
      }
    }
    long freeMb = freeDiskMb(s.home());
    if (freeMb >= 0 && freeMb < s.minFreeDiskMb()) {
      out.add(
          "only "
              + freeMb
              + " MB free for "
              + s.home()
              + "; Freshet needs "
              + s.minFreeDiskMb()
              + " MB (FRESHET_HOME elsewhere, or FRESHET_MIN_FREE_DISK_MB)");
    }
    return out;
  }

  static boolean portFree(int port) {
    try (var socket = new ServerSocket(port, 1, InetAddress.getByName("0.0.0.0"))) {
      socket.setReuseAddress(true);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String envName(String label) {
    int open = label.indexOf('(');
    return open < 0 ? label : label.substring(open + 1, label.length() - 1);
  }

  private static long freeDiskMb(Path home) {
    for (Path p = home; p != null; p = p.getParent()) {
      if (Files.exists(p)) {
        try {
          return Files.getFileStore(p).getUsableSpace() / (1024 * 1024);
        } catch (IOException e) {
          return -1;
        }
      }
    }
    return -1;
  }
}
