package io.freshet.sink.retention;

/**
 * PostgreSQL advisory-lock keys of the content layer (shared by every sink instance of one
 * database).
 */
final class ContentLocks {

  /**
   * Held (session level, try-lock) for a whole cleanup run: a second instance that tries while one
   * runs skips its run.
   */
  static final long CLEANUP_RUN = 0x4672_6573_6801L;

  /**
   * Held exclusively by each cleanup batch's transaction and shared by each retention mark's, so
   * that a mark either commits before a batch picks its rows (the batch sees it and keeps the row)
   * or runs after the batch (and finds the row gone: a clear "unknown id", nothing marked).
   */
  static final long DELETE_VS_MARK = 0x4672_6573_6802L;

  private ContentLocks() {}
}
