package io.freshet.scheduler.api.imports;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.UUID;

/**
 * What an import did.
 *
 * @param created how many sources were created
 * @param skippedExisting how many were skipped because the tenant already has a source with the
 *     same connector and URL (or the import listed it twice)
 * @param ids the created sources, in the order of the import
 * @param warnings what was changed to import an entry (e.g. an OPML title truncated), each starting
 *     with the entry ({@code outline 7: …}); empty when nothing was
 */
public record ImportResult(
    int created,
    @JsonProperty("skipped_existing") int skippedExisting,
    List<UUID> ids,
    List<String> warnings) {}
