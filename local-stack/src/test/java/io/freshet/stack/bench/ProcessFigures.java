package io.freshet.stack.bench;

import io.freshet.stack.launcher.ManagedProcess;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the operating system and each JVM say of the stack's processes: CPU (utime + stime of {@code
 * /proc/<pid>/stat}), resident memory (its proportional share, {@link #rssKiB}), GC pause time
 * (each service's {@code jvm_gc_pause_seconds_sum} on its management port; {@code jstat} for the
 * broker; the MXBeans for this JVM) and each JVM's flags. PostgreSQL and the registry are every
 * process of theirs summed (PostgreSQL's resident memory then counts shared buffers once per
 * backend that touched them).
 */
final class ProcessFigures {

  /** One sample: CPU ms, resident KiB and GC ms by part. */
  record Sample(Map<String, Double> cpuMs, Map<String, Long> rssKiB, Map<String, Double> gcMs) {}

  /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
  static final double TICKS = 100.0;

  static final String BENCH = "bench + demo web";

  /** The PostgreSQL backend of the benchmark's own queries (the lag samples). */
  static final String BENCH_PG = "bench's PostgreSQL queries";

  /** Whether a part is the benchmark's own rather than the stack's. */
  static boolean benchPart(String part) {
    return part.equals(BENCH) || part.equals(BENCH_PG) || part.equals(BareLoopProcess.PART);
  }

  private final BenchStack stack;
  private final Map<Long, String> named = new ConcurrentHashMap<>();

  ProcessFigures(BenchStack stack) {
    this.stack = stack;
  }

  /**
   * Reports a process under a part name of its own: a child of this JVM (not a service), or a
   * PostgreSQL backend that serves the benchmark rather than the stack.
   */
  void name(long pid, String part) {
    named.put(pid, part);
  }

  /** pid → part name, for every process of the stack and this JVM. */
  Map<Long, String> parts() {
    Map<Long, String> names = new HashMap<>();
    for (ManagedProcess p : stack.services.running()) {
      names.put(p.pid(), p.name());
    }
    names.put(stack.infra.kafka().pid(), "kafka");
    Map<Long, String> out = new HashMap<>();
    out.put(ProcessHandle.current().pid(), BENCH);
    ProcessHandle.current()
        .descendants()
        .forEach(
            h -> {
              String name = names.get(h.pid());
              if (name == null) {
                String cmd = h.info().command().orElse("");
                String line = h.info().commandLine().orElse(cmd);
                name =
                    cmd.contains("postgres")
                        ? "postgresql"
                        : line.contains("quarkus") || line.contains("apicurio")
                            ? "registry"
                            : "other";
              }
              out.put(h.pid(), name);
            });
    // PostgreSQL runs detached (pg_ctl): its postmaster's pid is in its data directory
    try {
      Path pidFile = stack.settings.home().resolve("postgres").resolve("postmaster.pid");
      long postmaster = Long.parseLong(Files.readAllLines(pidFile).getFirst().trim());
      ProcessHandle.of(postmaster)
          .ifPresent(
              h -> {
                out.put(h.pid(), "postgresql");
                h.descendants().forEach(d -> out.put(d.pid(), "postgresql"));
              });
    } catch (IOException | RuntimeException e) {
      // not found: PostgreSQL is left out
    }
    named.forEach(
        (pid, part) -> {
          if (ProcessHandle.of(pid).isPresent()) {
            out.put(pid, part);
          } else {
            named.remove(pid); // ended: its CPU can no longer be read
          }
        });
    return out;
  }

  Sample sample() {
    Map<String, Double> cpu = new TreeMap<>();
    Map<String, Long> rss = new TreeMap<>();
    parts()
        .forEach(
            (pid, name) -> {
              cpu.merge(name, cpuMs(pid), Double::sum);
              rss.merge(name, rssKiB(pid), Long::sum);
            });
    Map<String, Double> gc = new TreeMap<>();
    for (ManagedProcess p : stack.services.running()) {
      gc.put(p.name(), serviceGcMs(p.name()));
    }
    gc.put("kafka", jstatGcMs(stack.infra.kafka().pid()));
    double own = 0;
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      own += Math.max(0, b.getCollectionTime());
    }
    gc.put(BENCH, own);
    return new Sample(cpu, rss, gc);
  }

  /** utime + stime of a process, ms; 0 once it is gone. */
  static double cpuMs(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      // the command may hold spaces: fields count from after its closing parenthesis
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000.0 / TICKS;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /**
   * Resident memory as its proportional share ({@code Pss} of {@code /proc/<pid>/smaps_rollup}: a
   * page shared by n processes counts 1/n in each, so PostgreSQL's backends do not each count the
   * shared buffers), else {@code VmRSS}; KiB, 0 once the process is gone.
   */
  static long rssKiB(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/smaps_rollup"))) {
        if (line.startsWith("Pss:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // no smaps_rollup: VmRSS
    }
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // gone
    }
    return 0;
  }

  /** Sum of every {@code jvm_gc_pause_seconds_sum} series of a service, ms; NaN if unread. */
  private double serviceGcMs(String name) {
    Integer port = stack.publicPort(name);
    if (port == null) {
      return Double.NaN;
    }
    try {
      double sum = 0;
      for (String line : stack.prometheus(port).split("\n")) {
        if (line.startsWith("jvm_gc_pause_seconds_sum")) {
          sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      return sum * 1000;
    } catch (Exception e) {
      return Double.NaN;
    }
  }

  /** GCT of {@code jstat -gc}, ms; NaN if jstat cannot tell. */
  static double jstatGcMs(long pid) {
    try {
      String java = ProcessHandle.current().info().command().orElse("java");
      Path jstat = Path.of(java).resolveSibling("jstat");
      Process p = new ProcessBuilder(jstat.toString(), "-gc", Long.toString(pid)).start();
      String out = new String(p.getInputStream().readAllBytes());
      p.waitFor();
      String[] lines = out.trim().split("\n");
      String[] head = lines[0].trim().split("\\s+");
      String[] vals = lines[lines.length - 1].trim().split("\\s+");
      for (int i = 0; i < head.length; i++) {
        if (head[i].equals("GCT")) {
          return Double.parseDouble(vals[i]) * 1000;
        }
      }
    } catch (Exception e) {
      // no jstat
    }
    return Double.NaN;
  }

  /**
   * A process's command line from {@code /proc/<pid>/cmdline} (the JDK's view may be cut short).
   */
  static List<String> arguments(long pid) {
    try {
      String line = new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")));
      return List.of(line.split("\0"));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /** Each JVM's options (what precedes its main class or jar), by part. */
  Map<String, String> jvmFlags() {
    Map<String, String> out = new TreeMap<>();
    parts()
        .forEach(
            (pid, name) -> {
              if (name.equals("postgresql") || name.equals("other")) {
                return;
              }
              List<String> args = arguments(pid);
              List<String> flags = new ArrayList<>();
              for (String a : args.subList(Math.min(1, args.size()), args.size())) {
                if (a.equals("-jar") || a.equals("-cp") || !a.startsWith("-")) {
                  break;
                }
                if (!a.startsWith("-D")) {
                  flags.add(a);
                }
              }
              if (!args.isEmpty()) {
                out.putIfAbsent(name, String.join(" ", flags));
              }
            });
    if (!out.containsKey(BENCH)) {
      out.put(BENCH, String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }
    return out;
  }
}
