package io.freshet.scheduler.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * CPU time spent by the parts of a benchmark run, from the operating system and the JVM: the
 * embedded PostgreSQL (its postmaster and every live backend; backends that exited are missed), the
 * claim path of the scheduler (the claim threads and the Kafka producer's network thread) and the
 * rest of the benchmark's JVM, which is mostly the in-JVM Kafka broker.
 *
 * @param postgres nanoseconds of CPU of PostgreSQL's processes
 * @param scheduler nanoseconds of CPU of the claim threads and the producer's I/O thread
 * @param jvm nanoseconds of CPU of the whole benchmark JVM (the scheduler's share included)
 */
record Cpu(long postgres, long scheduler, long jvm) {

  /** The counters now. */
  static Cpu now() {
    var threads = ManagementFactory.getThreadMXBean();
    long scheduler = CLAIM_THREADS.get();
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("kafka-producer-network-thread")) {
        scheduler += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    long jvm =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    return new Cpu(postgresCpu(), scheduler, jvm);
  }

  private static final java.util.concurrent.atomic.AtomicLong CLAIM_THREADS =
      new java.util.concurrent.atomic.AtomicLong();

  /** Runs one claim round on this thread and counts its CPU as the claim threads'. */
  static int claim(java.util.function.IntSupplier round) {
    var threads = ManagementFactory.getThreadMXBean();
    long c0 = threads.getCurrentThreadCpuTime();
    try {
      return round.getAsInt();
    } finally {
      CLAIM_THREADS.addAndGet(threads.getCurrentThreadCpuTime() - c0);
    }
  }

  /** What was spent since {@code before}. */
  Cpu since(Cpu before) {
    return new Cpu(postgres - before.postgres, scheduler - before.scheduler, jvm - before.jvm);
  }

  /** Milliseconds of CPU per claim, by part. */
  String perClaim(long claims) {
    return String.format(
        "CPU per claim: PostgreSQL %.3f ms, scheduler claim path %.3f ms, rest of the JVM"
            + " (mostly the in-JVM broker) %.3f ms",
        postgres / 1e6 / claims, scheduler / 1e6 / claims, (jvm - scheduler) / 1e6 / claims);
  }

  private static final String DATA_DIR = "pg-data-" + ProcessHandle.current().pid();

  private static long postgresCpu() {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(c -> c.contains(DATA_DIR)).orElse(false))
        .findFirst()
        .map(postmaster -> cpu(postmaster) + postmaster.descendants().mapToLong(Cpu::cpu).sum())
        .orElse(0L);
  }

  private static long cpu(ProcessHandle p) {
    return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }
}
