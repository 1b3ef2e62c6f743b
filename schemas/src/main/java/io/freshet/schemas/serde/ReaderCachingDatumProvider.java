package io.freshet.schemas.serde;

import io.apicurio.registry.serde.avro.DefaultAvroDatumProvider;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;

/**
 * Apicurio's datum provider, except that it hands out one reader per writer schema and thread
 * instead of a new one per record. Apicurio's deserializer asks for a reader for every record, and
 * a new Avro reader resolves the writer schema against the reader schema before its first read — a
 * deep comparison of the two schemas each time, which cost about 40 % of the content sink's
 * listener threads' CPU (ContentFetched, profiled with JFR in the sink benchmark). Reading is the
 * same: a reader is built exactly as Apicurio builds it, for the writer schema the registry
 * resolved from the record's id, so records of an older schema are still resolved against the
 * current one.
 *
 * <p>Readers are not thread-safe, so each thread keeps its own (a consumer's deserializer may be
 * shared by a listener's threads). They are keyed by the writer schema's identity: the registry
 * client caches one parsed schema per id, so a different instance means another id (or a refreshed
 * cache), never a reason to compare schemas. At most {@link #READERS_PER_THREAD} per thread are
 * kept, least recently used first out; a reader whose read fails is dropped, so a corrupt record
 * cannot leave state behind for the next one.
 */
public class ReaderCachingDatumProvider<T> extends DefaultAvroDatumProvider<T> {

  /** Writer schemas whose readers one thread keeps. */
  static final int READERS_PER_THREAD = 32;

  private record WriterSchema(Schema schema) {
    @Override
    public boolean equals(Object o) {
      return o instanceof WriterSchema w && w.schema == schema;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(schema);
    }
  }

  private final ThreadLocal<Map<WriterSchema, DatumReader<T>>> readers =
      ThreadLocal.withInitial(
          () ->
              new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<WriterSchema, DatumReader<T>> e) {
                  return size() > READERS_PER_THREAD;
                }
              });

  /** Instantiated by Apicurio's serde ({@code apicurio.registry.avro-datum-provider}). */
  public ReaderCachingDatumProvider() {}

  @Override
  public DatumReader<T> createDatumReader(Schema writer) {
    var cache = readers.get();
    var key = new WriterSchema(writer);
    DatumReader<T> reader = cache.get(key);
    if (reader == null) {
      reader = new Evicting(super.createDatumReader(writer), key);
      cache.put(key, reader);
    }
    return reader;
  }

  /** Drops itself from its thread's cache when a read fails. */
  private final class Evicting implements DatumReader<T> {
    private final DatumReader<T> delegate;
    private final WriterSchema key;

    Evicting(DatumReader<T> delegate, WriterSchema key) {
      this.delegate = delegate;
      this.key = key;
    }

    @Override
    public void setSchema(Schema schema) {
      delegate.setSchema(schema);
    }

    @Override
    public T read(T reuse, Decoder in) throws IOException {
      try {
        return delegate.read(reuse, in);
      } catch (IOException | RuntimeException | Error e) {
        readers.get().remove(key);
        throw e;
      }
    }
  }
}
