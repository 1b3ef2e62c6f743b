package io.freshet.worker.signal;

import io.freshet.schemas.avro.SignalType;
import java.time.Instant;

/**
 * An item's signal type and, when it announces an event, when that happens.
 *
 * @param eventAt null when unknown
 */
public record Signal(SignalType type, Instant eventAt) {}
