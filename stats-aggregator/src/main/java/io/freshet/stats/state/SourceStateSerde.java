package io.freshet.stats.state;

import io.freshet.cadence.estimate.RatePosterior;
import io.freshet.cadence.estimate.RateTracker;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The per-source state in its store and changelog: a compact, versioned binary layout (a format
 * byte, then fixed fields). Why not Avro against the registry like the topics: the state is private
 * to this application (no other reader, no registry round trip on restore) and is read and written
 * on every fetch, so size and speed matter more than self-description; the format byte lets a later
 * layout read this one (format 2 adds the source's tenant at the end; a format 1 state reads with
 * no tenant, which the next outcome of the source fills; format 3 keeps the applied outcomes as 64
 * bits each instead of their {@code request_id@finished_at} text, ~1.5 kB less per state with the
 * default 32, and an older state's texts are read into the same 64 bits, so an outcome it had
 * applied is still recognised after the upgrade; format 4 adds the empirical-Bayes rate evidence
 * and the change rate derived from it, which an older state reads as none: the next outcome seeds
 * the evidence from the tracker's). Why not JSON: a window of 20 summaries plus 512 hashes is ~5 kB
 * of binary but several times that as text, read and written per fetch.
 */
public final class SourceStateSerde implements Serde<SourceState> {

  /** The layout written by this version. */
  static final byte FORMAT = 4;

  /** The layout before the rate posterior: still read. */
  static final byte FORMAT_WITHOUT_POSTERIOR = 3;

  /** The layout with applied outcomes as text: still read. */
  static final byte FORMAT_OUTCOMES_AS_TEXT = 2;

  /** The layout before the tenant, outcomes as text: still read. */
  static final byte FORMAT_WITHOUT_TENANT = 1;

  @Override
  public Serializer<SourceState> serializer() {
    return (topic, state) -> state == null ? null : write(state);
  }

  @Override
  public Deserializer<SourceState> deserializer() {
    return (topic, bytes) -> bytes == null ? null : read(bytes);
  }

  static byte[] write(SourceState s) {
    try {
      var bytes = new ByteArrayOutputStream(256 + s.countedHashes.size() * 8);
      var out = new DataOutputStream(bytes);
      out.writeByte(FORMAT);
      out.writeInt(s.consecutiveMisses);
      out.writeInt(s.consecutiveEmpty);
      out.writeLong(s.lastSuccessAt);
      out.writeLong(s.updatedAt);
      out.writeShort(s.window.size());
      for (FetchSummary f : s.window) {
        out.writeLong(f.finishedAt());
        out.writeInt(f.newItems());
        for (int c : f.typeCounts()) {
          out.writeInt(c);
        }
        out.writeShort(f.daysToEvent().length);
        for (double d : f.daysToEvent()) {
          out.writeDouble(d);
        }
      }
      out.writeByte(s.recentPublished.size());
      for (long p : s.recentPublished) {
        out.writeLong(p);
      }
      long[] hashes = s.countedHashes.toArray();
      out.writeInt(hashes.length);
      for (long h : hashes) {
        out.writeLong(h);
      }
      long[] applied = s.appliedOutcomes.toArray();
      out.writeShort(applied.length);
      for (long o : applied) {
        out.writeLong(o);
      }
      RateTracker.Snapshot r = s.rate;
      out.writeDouble(r.itemCount());
      out.writeDouble(r.itemExposureHours());
      out.writeLong(r.itemUpdatedAt());
      out.writeDouble(r.lastPageEstimate());
      out.writeByte(r.intervals().length);
      for (int j = 0; j < r.intervals().length; j++) {
        out.writeDouble(r.intervals()[j]);
        out.writeBoolean(r.changed()[j]);
        out.writeLong(r.observedAt()[j]);
      }
      out.writeBoolean(s.tenantId != null);
      if (s.tenantId != null) {
        out.writeUTF(s.tenantId);
      }
      RatePosterior.Snapshot p = s.posterior;
      out.writeDouble(p.itemCount());
      out.writeDouble(p.itemHours());
      out.writeLong(p.itemUpdatedAt());
      out.writeShort(p.changeLogLik().length);
      for (float l : p.changeLogLik()) {
        out.writeFloat(l);
      }
      out.writeLong(p.changeUpdatedAt());
      out.writeLong(p.observations());
      out.writeDouble(s.changeRate);
      out.writeDouble(s.meanRate);
      out.writeLong(s.lastChange);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static SourceState read(byte[] bytes) {
    try {
      var in = new DataInputStream(new ByteArrayInputStream(bytes));
      byte format = in.readByte();
      if (format != FORMAT
          && format != FORMAT_WITHOUT_POSTERIOR
          && format != FORMAT_OUTCOMES_AS_TEXT
          && format != FORMAT_WITHOUT_TENANT) {
        throw new SerializationException("unknown source-state format " + format);
      }
      int misses = in.readInt();
      int empty = in.readInt();
      long lastSuccess = in.readLong();
      long updated = in.readLong();
      int windowSize = in.readUnsignedShort();
      var window = new java.util.ArrayList<FetchSummary>(windowSize);
      for (int i = 0; i < windowSize; i++) {
        long at = in.readLong();
        int n = in.readInt();
        int[] types = new int[SignalTypes.COUNT];
        for (int t = 0; t < types.length; t++) {
          types[t] = in.readInt();
        }
        double[] days = new double[in.readUnsignedShort()];
        for (int d = 0; d < days.length; d++) {
          days[d] = in.readDouble();
        }
        window.add(new FetchSummary(at, n, types, days));
      }
      int recent = in.readUnsignedByte();
      var published = new java.util.ArrayList<Long>(recent);
      for (int i = 0; i < recent; i++) {
        published.add(in.readLong());
      }
      int hashes = in.readInt();
      long[] counted = new long[hashes];
      for (int i = 0; i < hashes; i++) {
        counted[i] = in.readLong();
      }
      long[] applied = new long[in.readUnsignedShort()];
      for (int i = 0; i < applied.length; i++) {
        applied[i] =
            format >= FORMAT_WITHOUT_POSTERIOR ? in.readLong() : identityOfText(in.readUTF());
      }
      double itemCount = in.readDouble();
      double exposure = in.readDouble();
      long itemUpdated = in.readLong();
      double lastPage = in.readDouble();
      int pages = in.readUnsignedByte();
      double[] intervals = new double[pages];
      boolean[] changed = new boolean[pages];
      long[] observed = new long[pages];
      for (int j = 0; j < pages; j++) {
        intervals[j] = in.readDouble();
        changed[j] = in.readBoolean();
        observed[j] = in.readLong();
      }
      String tenant = format >= FORMAT_OUTCOMES_AS_TEXT && in.readBoolean() ? in.readUTF() : null;
      RatePosterior.Snapshot posterior = RatePosterior.Snapshot.EMPTY;
      double changeRate = -1;
      double meanRate = -1;
      long lastChange = SourceState.NEVER;
      if (format >= FORMAT) {
        double count = in.readDouble();
        double hours = in.readDouble();
        long itemsAt = in.readLong();
        float[] change = new float[in.readUnsignedShort()];
        for (int k = 0; k < change.length; k++) {
          change[k] = in.readFloat();
        }
        posterior =
            new RatePosterior.Snapshot(count, hours, itemsAt, change, in.readLong(), in.readLong());
        changeRate = in.readDouble();
        meanRate = in.readDouble();
        lastChange = in.readLong();
      }
      var state =
          new SourceState(
              new RateTracker.Snapshot(
                  itemCount, exposure, itemUpdated, intervals, changed, observed, lastPage));
      state.consecutiveMisses = misses;
      state.consecutiveEmpty = empty;
      state.lastSuccessAt = lastSuccess;
      state.updatedAt = updated;
      state.window.addAll(window);
      state.recentPublished.addAll(published);
      state.countedHashes = LongRing.of(counted);
      state.appliedOutcomes = LongRing.of(applied);
      state.tenantId = tenant;
      state.posterior = posterior;
      state.changeRate = changeRate;
      state.meanRate = meanRate;
      state.lastChange = lastChange;
      return state;
    } catch (IOException e) {
      throw new SerializationException("truncated or corrupt source state", e);
    }
  }

  /**
   * An applied outcome as formats 1 and 2 wrote it, {@code request_id@finished_at millis}, in the
   * 64 bits format 3 keeps. A text of another shape (never written) cannot match a real outcome's
   * identity except by a 2^-64 chance; it is kept so that the count of remembered outcomes is the
   * same.
   */
  static long identityOfText(String text) {
    int at = text.lastIndexOf('@');
    if (at >= 0) {
      try {
        return StatsUpdater.outcomeIdentity(
            text.substring(0, at), Long.parseLong(text.substring(at + 1)));
      } catch (NumberFormatException notMillis) {
        // fall through
      }
    }
    return StatsUpdater.hash64(text);
  }
}
