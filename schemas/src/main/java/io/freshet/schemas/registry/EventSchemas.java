package io.freshet.schemas.registry;

import io.freshet.schemas.avro.ApiKeyState;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.topic.FreshetTopics;
import java.util.List;
import org.apache.avro.Schema;

/** Each event's value schema and the registry subject it lives under (topic-name strategy). */
public record EventSchemas(String topic, Schema schema) {

  /** The events, in data-flow order, then the API keys' state. */
  public static final List<EventSchemas> ALL =
      List.of(
          new EventSchemas(FreshetTopics.FETCH_REQUESTED, FetchRequested.getClassSchema()),
          new EventSchemas(FreshetTopics.CONTENT_FETCHED, ContentFetched.getClassSchema()),
          new EventSchemas(FreshetTopics.FETCH_COMPLETED, FetchCompleted.getClassSchema()),
          new EventSchemas(FreshetTopics.SOURCE_STATS, SourceStats.getClassSchema()),
          new EventSchemas(FreshetTopics.PUSH_RECEIVED, PushReceived.getClassSchema()),
          new EventSchemas(FreshetTopics.API_KEYS, ApiKeyState.getClassSchema()));

  /** The subject of the topic's values: {@code <topic>-value}. */
  public String subject() {
    return topic + "-value";
  }
}
