package io.freshet.scheduler.source;

/**
 * The editable fields of a source for a full update. The cursor is reset when the URL or connector
 * changes: an ETag or sync token of another address must not be sent to the new one.
 *
 * @param credentials what to do with the stored credentials
 */
public record SourceEdit(SourceFields fields, CredentialsChange credentials) {

  /** Keep, replace or remove the stored credentials. */
  public sealed interface CredentialsChange {
    /** The request did not mention credentials. */
    record Keep() implements CredentialsChange {}

    /** {@code "credentials": null}. */
    record Remove() implements CredentialsChange {}

    /** New credentials, already sealed. */
    record Replace(byte[] encrypted) implements CredentialsChange {}
  }
}
