package io.freshet.stack.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where PostgreSQL's CPU goes in a window: each server process's utime + stime ({@code /proc})
 * grouped by what {@code pg_stat_activity} says it is — a client backend by its {@code
 * application_name} (the launcher names each service's connections after it), any other process by
 * its {@code backend_type} (autovacuum, WAL writer, checkpointer…) — and, when the server loaded
 * {@code pg_stat_statements}, the statements that took the most execution time.
 */
final class PgFigures {

  /** One statement's figures over a window. */
  record Statement(
      String query,
      long calls,
      double execMs,
      long rows,
      long blksHit,
      long blksDirtied,
      long wal) {}

  /** One table's row-version counters ({@code pg_stat_user_tables}) over a window. */
  record Table(String name, long inserts, long updates, long hotUpdates, long deletes) {

    Table minus(Table before) {
      return before == null
          ? this
          : new Table(
              name,
              inserts - before.inserts,
              updates - before.updates,
              hotUpdates - before.hotUpdates,
              deletes - before.deletes);
    }

    long versions() {
      return inserts + updates + deletes;
    }
  }

  private final BenchStack stack;
  private final boolean statements;
  private Map<Long, String> names = new HashMap<>();
  private Map<Long, Double> cpu0 = new HashMap<>();
  private Map<String, Table> tables0 = new HashMap<>();

  PgFigures(BenchStack stack, boolean statements) {
    this.stack = stack;
    this.statements = statements;
  }

  /** Starts a window: CPU of every server process now, statement counters reset. */
  void start() throws SQLException {
    try (Connection c = stack.connect();
        java.sql.Statement st = c.createStatement()) {
      names = processes(st);
      cpu0 = new HashMap<>();
      names.keySet().forEach(pid -> cpu0.put(pid, ProcessFigures.cpuMs(pid)));
      if (statements) {
        st.execute("SELECT pg_stat_statements_reset()");
        tables0 = tableCounters(st);
      }
    }
  }

  /**
   * Each table's inserts, updates (HOT among them: no index touched) and deletes since {@link
   * #start()}, most row versions first (empty without {@code --pg-statements}). The statistics
   * collector flushes a backend's counters within a second or so of its transaction: the window's
   * edges blur by that much.
   */
  List<Table> tables() throws SQLException {
    List<Table> out = new ArrayList<>();
    if (!statements) {
      return out;
    }
    try (Connection c = stack.connect();
        java.sql.Statement st = c.createStatement()) {
      tableCounters(st).forEach((name, t) -> out.add(t.minus(tables0.get(name))));
    }
    out.removeIf(t -> t.versions() == 0);
    out.sort((a, b) -> Long.compare(b.versions(), a.versions()));
    return out;
  }

  private static Map<String, Table> tableCounters(java.sql.Statement st) throws SQLException {
    Map<String, Table> out = new HashMap<>();
    try (ResultSet rs =
        st.executeQuery(
            "SELECT schemaname || '.' || relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del"
                + " FROM pg_stat_user_tables")) {
      while (rs.next()) {
        String name = rs.getString(1);
        out.put(name, new Table(name, rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
      }
    }
    return out;
  }

  /** CPU ms by part since {@link #start()} (processes born since count from zero). */
  Map<String, Double> cpuMs() throws SQLException {
    Map<Long, String> now;
    try (Connection c = stack.connect();
        java.sql.Statement st = c.createStatement()) {
      now = processes(st);
    }
    Map<String, Double> out = new TreeMap<>();
    Map<Long, String> all = new HashMap<>(names);
    all.putAll(now);
    all.forEach(
        (pid, name) -> {
          double d = ProcessFigures.cpuMs(pid) - cpu0.getOrDefault(pid, 0.0);
          if (d > 0) {
            out.merge(name, d, Double::sum);
          }
        });
    return out;
  }

  /** The statements of the window by execution time, most first (empty without the extension). */
  List<Statement> statements(int limit) throws SQLException {
    List<Statement> out = new ArrayList<>();
    if (!statements) {
      return out;
    }
    try (Connection c = stack.connect();
        java.sql.Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT query, calls, total_exec_time, rows, shared_blks_hit, shared_blks_dirtied,"
                    + " wal_bytes FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT "
                    + limit)) {
      while (rs.next()) {
        out.add(
            new Statement(
                rs.getString(1).replaceAll("\\s+", " "),
                rs.getLong(2),
                rs.getDouble(3),
                rs.getLong(4),
                rs.getLong(5),
                rs.getLong(6),
                rs.getLong(7)));
      }
    }
    return out;
  }

  /** Creates the extension's view in the services' database (the library is preloaded). */
  static void createExtension(BenchStack stack) throws SQLException {
    try (Connection c = stack.connect();
        java.sql.Statement st = c.createStatement()) {
      st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    }
  }

  private Map<Long, String> processes(java.sql.Statement st) throws SQLException {
    Map<Long, String> out = new HashMap<>();
    try (ResultSet rs =
        st.executeQuery(
            "SELECT pid, backend_type, coalesce(application_name, ''), coalesce(datname, '')"
                + " FROM pg_stat_activity")) {
      while (rs.next()) {
        String type = rs.getString(2);
        String app = rs.getString(3);
        String name;
        if (type.equals("client backend")) {
          name =
              app.isBlank() || app.startsWith("PostgreSQL JDBC")
                  ? "client " + rs.getString(4) + " (bench, registry)"
                  : app;
        } else {
          name = type;
        }
        out.put(rs.getLong(1), name);
      }
    }
    return out;
  }

  /** Prints the window's PostgreSQL figures per fetch. */
  static void print(
      Map<String, Double> cpuMs, List<Statement> statements, List<Table> tables, long fetches) {
    double f = Math.max(1, fetches);
    System.out.printf(
        "PostgreSQL CPU ms per fetch by process: %s%n", SteadyReport.perFetch(cpuMs, fetches));
    if (!tables.isEmpty()) {
      System.out.println(
          "row versions per fetch by table (pg_stat_user_tables; HOT: an update that touched no"
              + " index): "
              + String.join(
                  "; ",
                  tables.stream()
                      .map(
                          t ->
                              String.format(
                                  "%s ins %.2f upd %.2f (HOT %.0f %%) del %.2f",
                                  t.name(),
                                  t.inserts() / f,
                                  t.updates() / f,
                                  t.updates() == 0 ? 0.0 : 100.0 * t.hotUpdates() / t.updates(),
                                  t.deletes() / f))
                      .toList()));
    }
    if (statements.isEmpty()) {
      return;
    }
    double total = statements.stream().mapToDouble(Statement::execMs).sum();
    System.out.printf(
        "statements by execution time (pg_stat_statements; the top %d: %.3f ms per fetch)%n",
        statements.size(), total / f);
    System.out.printf(
        "%8s %9s %8s %9s %9s %9s  %s%n",
        "ms/fetch", "calls/f", "rows/call", "hit/call", "dirt/call", "WAL B/f", "statement");
    for (Statement s : statements) {
      double calls = Math.max(1, s.calls());
      System.out.printf(
          "%8.4f %9.3f %8.1f %9.1f %9.2f %9.0f  %s%n",
          s.execMs() / f,
          s.calls() / f,
          s.rows() / calls,
          s.blksHit() / calls,
          s.blksDirtied() / calls,
          s.wal() / f,
          s.query().length() > 260 ? s.query().substring(0, 260) + "…" : s.query());
    }
  }
}
