package io.freshet.scheduler.api;

import tools.jackson.databind.JsonNode;

/**
 * One source of a bulk import, as a create body.
 *
 * @param label where it came from, prefixed to its error messages ({@code line 3}, {@code outline
 *     7})
 */
record ImportEntry(String label, JsonNode body) {}
