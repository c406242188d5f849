/*
 * Face: a session's history as front ends show it (messages, and compactions with what they
 * kept), for `sessions show`. Loads the schema library the compaction records are read with.
 */
export { compactionSummary, type HistoryEntry, sessionHistory } from './books/session-history.js';
