/*
 * The record a compaction's summary message carries, for the session's read models (`sessions
 * show`, the history). A face of its own beside index.ts: it loads the record's reader alone,
 * not the agent, so that reading a session stays light.
 */
export { type CompactionRecord, compactionRecordOf } from './conversation/compaction-record.js';
