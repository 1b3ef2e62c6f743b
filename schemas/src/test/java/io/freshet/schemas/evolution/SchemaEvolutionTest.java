package io.freshet.schemas.evolution;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.evolution.CompatibilityGuard.Version;
import io.freshet.schemas.registry.EventSchemas;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every event schema must read data written with each of its committed earlier versions ({@code
 * src/main/avro/history/<Event>/vN.avsc}), and a changed schema must be committed to the history as
 * its next version.
 */
class SchemaEvolutionTest {

  private static final Path HISTORY = Path.of("src/main/avro/history");

  @TestFactory
  Stream<DynamicTest> currentSchemaReadsDataWrittenWithEveryCommittedVersion() {
    return EventSchemas.ALL.stream()
        .map(
            event ->
                DynamicTest.dynamicTest(
                    event.schema().getName(),
                    () -> {
                      List<Version> history = history(event.schema().getName());
                      assertThat(history).as("committed versions").isNotEmpty();
                      assertThat(CompatibilityGuard.problems(event.schema(), history)).isEmpty();
                      for (Version old : history) {
                        Object decoded = roundTrip(old.schema(), event.schema());
                        assertThat(decoded).as("decoded from " + old.name()).isNotNull();
                      }
                    }));
  }

  @TestFactory
  Stream<DynamicTest> newestCommittedVersionIsTheCurrentSchema() {
    return EventSchemas.ALL.stream()
        .map(
            event ->
                DynamicTest.dynamicTest(
                    event.schema().getName(),
                    () -> {
                      List<Version> history = history(event.schema().getName());
                      Version newest = history.getLast();
                      if (!newest.schema().equals(event.schema())) {
                        Path proposal = proposeNextVersion(event.schema(), history.size() + 1);
                        throw new AssertionError(
                            event.schema().getName()
                                + " changed since "
                                + newest.name()
                                + ". If the change is intended, commit "
                                + proposal
                                + " into "
                                + HISTORY.resolve(event.schema().getName()));
                      }
                    }));
  }

  @Test
  void guardRejectsANewFieldWithoutDefault() throws IOException {
    Schema incompatible =
        load(Path.of("src/test/resources/incompatible/FetchCompleted-required-field.avsc"));
    var problems = CompatibilityGuard.problems(incompatible, history("FetchCompleted"));

    // Every committed version is checked, and each one names the field.
    var versions = history("FetchCompleted");
    assertThat(problems).hasSize(versions.size());
    assertThat(problems.getFirst().version()).isEqualTo("v1");
    assertThat(problems)
        .allSatisfy(
            p ->
                assertThat(p.toString())
                    .contains("READER_FIELD_MISSING_DEFAULT")
                    .contains("shard"));
  }

  @Test
  void guardRejectsAChangedFieldType() throws IOException {
    Schema incompatible =
        load(Path.of("src/test/resources/incompatible/SourceStats-type-change.avsc"));
    List<Version> history = history("SourceStats");
    var problems = CompatibilityGuard.problems(incompatible, history);

    // one problem per committed version, each naming the field
    assertThat(problems).hasSize(history.size());
    assertThat(problems)
        .allSatisfy(
            p -> assertThat(p.toString()).contains("TYPE_MISMATCH").contains("window_fetches"));
  }

  @Test
  void guardAcceptsANewFieldWithADefault() throws IOException {
    Schema current = history("FetchRequested").getLast().schema();
    String json =
        current
            .toString()
            .replaceFirst(
                "\"fields\":\\[",
                "\"fields\":[{\"name\":\"trace_id\",\"type\":[\"null\",\"string\"],\"default\":null},");
    Schema evolved = new Schema.Parser().parse(json);

    assertThat(CompatibilityGuard.problems(evolved, history("FetchRequested"))).isEmpty();
  }

  private static Object roundTrip(Schema writer, Schema reader) throws IOException {
    var out = new ByteArrayOutputStream();
    var encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<>(writer).write(SampleDatum.of(writer), encoder);
    encoder.flush();
    var decoder = DecoderFactory.get().binaryDecoder(out.toByteArray(), null);
    return new SpecificDatumReader<>(writer, reader).read(null, decoder);
  }

  private static List<Version> history(String event) throws IOException {
    try (Stream<Path> files = Files.list(HISTORY.resolve(event))) {
      return files
          .filter(p -> p.getFileName().toString().matches("v\\d+\\.avsc"))
          .sorted(Comparator.comparingInt(SchemaEvolutionTest::versionNumber))
          .map(p -> new Version(p.getFileName().toString().replace(".avsc", ""), load(p)))
          .toList();
    }
  }

  private static int versionNumber(Path p) {
    return Integer.parseInt(p.getFileName().toString().replaceAll("\\D", ""));
  }

  private static Schema load(Path p) {
    try {
      return new Schema.Parser().parse(p.toFile());
    } catch (IOException e) {
      throw new IllegalStateException(p + ": " + e.getMessage(), e);
    }
  }

  private static Path proposeNextVersion(Schema current, int version) throws IOException {
    Path proposal = Path.of("target/schema-history", current.getName(), "v" + version + ".avsc");
    Files.createDirectories(proposal.getParent());
    Files.writeString(proposal, current.toString(true) + "\n");
    return proposal;
  }
}
