import { type SQL, sql } from 'drizzle-orm';
import {
  type AnySQLiteColumn,
  blob,
  check,
  foreignKey,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';
import { IMAGE_MEDIA_TYPES } from '../../events/image-types.js';
import { DEFAULT_QUEUE } from '../defaults.js';
import type { MatchesStoreRows } from '../rows.js';
import {
  BLOB_STORES,
  MESSAGE_ROLES,
  PLAN_STATUSES,
  REQUEST_KINDS,
  RESTORE_KINDS,
  RESTORE_MODES,
  RESTORE_STATUSES,
  RUN_MODES,
  RUN_STATES,
  SESSION_STATUSES,
  TASK_STATUSES,
} from '../vocabulary.js';

/*
 * The tables of taskweave. Written so that a PostgreSQL schema can follow column for column:
 * text ids generated in code (no rowid tricks), timestamps as integer milliseconds (bigint
 * there), JSON as text, enumerations as text with CHECK constraints, no SQLite-only syntax.
 * After a change here run `npx drizzle-kit generate`; the migration is applied at start-up.
 */

export { DEFAULT_QUEUE } from '../defaults.js';
export {
  BLOB_STORES,
  type BlobStoreKind,
  MESSAGE_ROLES,
  type MessageRole,
  PLAN_STATUSES,
  type PlanStatus,
  REQUEST_KINDS,
  RESTORE_KINDS,
  RESTORE_MODES,
  RESTORE_STATUSES,
  type RequestKind,
  type RestoreKind,
  type RestoreMode,
  RUN_MODES,
  RUN_STATES,
  type RunMode,
  type RunState,
  SESSION_STATUSES,
  type SessionStatus,
  TASK_STATUSES,
  type TaskStatus,
} from '../vocabulary.js';

/**
 * A column by its bare name. drizzle qualifies columns with the table name (`"tasks"."status"`),
 * which breaks a CHECK once drizzle-kit rebuilds the table under a temporary name.
 */
function bare(column: AnySQLiteColumn): SQL {
  return sql`${sql.identifier(column.name)}`;
}

/** `column IN ('a', 'b')` for a CHECK constraint; the values are this file's own constants. */
function oneOf(column: AnySQLiteColumn, values: readonly string[]): SQL {
  return sql`${bare(column)} in (${sql.raw(values.map((value) => `'${value}'`).join(', '))})`;
}

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    goal: text('goal').notNull(),
    workspace: text('workspace').notNull(),
    model: text('model').notNull(),
    status: text('status', { enum: SESSION_STATUSES }).notNull().default('idle'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [
    index('sessions_updated_at_idx').on(table.updatedAt),
    check('sessions_status_check', oneOf(table.status, SESSION_STATUSES)),
  ],
);

export const messages = sqliteTable(
  'messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    // Not a foreign key: the conversation is written on the hot path, and a message may be
    // recorded before the run row that owns it.
    runId: text('run_id').notNull(),
    role: text('role', { enum: MESSAGE_ROLES }).notNull(),
    /** JSON text. */
    content: text('content').notNull(),
    createdAt: integer('created_at').notNull(),
    /**
     * The task whose conversation this message belongs to; null for the session's top-level
     * conversation. Set to null when the task is deleted, so the words stay in the session.
     */
    taskId: text('task_id').references((): AnySQLiteColumn => tasks.id, { onDelete: 'set null' }),
    /**
     * The restore (a rewind of the conversation) that took this message out of the conversation;
     * null while it is part of it. A rewound message is kept, not deleted.
     */
    rewoundBy: integer('rewound_by'),
  },
  (table) => [
    // Serves a whole session's conversation too (its leading column), so no index on session_id
    // alone: each index is one more page write per appended message.
    index('messages_session_id_task_id_idx').on(table.sessionId, table.taskId),
    check('messages_role_check', oneOf(table.role, MESSAGE_ROLES)),
  ],
);

export const events = sqliteTable(
  'events',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    seq: integer('seq').notNull(),
    // Not a foreign key, for the same reason as messages.run_id.
    runId: text('run_id').notNull(),
    type: text('type').notNull(),
    updateType: text('update_type'),
    /** The whole event as JSON text, envelope included. */
    payload: text('payload').notNull(),
    ts: integer('ts').notNull(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.seq] })],
);

/**
 * The last seq each session's event log gave: the one counter of event seqs. Each append bumps
 * it in the statement (or transaction) that inserts its events, so writers in several processes
 * or on several machines get the next seqs in turn, with no gap; a rolled-back append takes its
 * bump back with it. A session gets its row with its first event.
 */
export const sessionSeqs = sqliteTable('session_seqs', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => sessions.id),
  lastSeq: integer('last_seq').notNull(),
});

export const runs = sqliteTable(
  'runs',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    goal: text('goal').notNull(),
    mode: text('mode', { enum: RUN_MODES }).notNull(),
    status: text('status', { enum: RUN_STATES }).notNull().default('running'),
    finalAnswer: text('final_answer'),
    steps: integer('steps').notNull().default(0),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    /** What the run's model calls cost in US dollars; null when its model has no price. */
    cost: real('cost'),
    /**
     * The queue task (a goal) the run worked on, for its tokens and cost on the task board; null
     * for a run outside the queue. Not a foreign key: a deleted task leaves its runs.
     */
    taskId: text('task_id'),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
  },
  (table) => [
    index('runs_session_id_idx').on(table.sessionId),
    check('runs_mode_check', oneOf(table.mode, RUN_MODES)),
    check('runs_status_check', oneOf(table.status, RUN_STATES)),
  ],
);

/**
 * Commands running now (run_command), one row each from start to end: what a process killed
 * with `kill -9` leaves here are commands that may still be running, for a resume or takeover
 * to end. `id` is the mark every process of the command carries in its environment.
 */
export const commands = sqliteTable(
  'commands',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    runId: text('run_id').notNull(),
    callId: text('call_id').notNull(),
    taskId: text('task_id'),
    command: text('command').notNull(),
    /** The command's process group (the shell's pid). */
    pgid: integer('pgid').notNull(),
    /** The taskweave process that runs it: the row is an orphan's once this process is gone. */
    ownerPid: integer('owner_pid').notNull(),
    /**
     * The machine the command runs on (its pids mean something there only); null for a row from
     * before hosts were recorded, which is this machine's.
     */
    host: text('host'),
    startedAt: integer('started_at').notNull(),
    /**
     * The id (`bg1`) of a command started with `background: true`; null for one run in the
     * foreground. A background command's call returned at once, so its orphan has no call to fail.
     */
    backgroundId: text('background_id'),
  },
  (table) => [index('commands_session_id_idx').on(table.sessionId)],
);

export const plans = sqliteTable(
  'plans',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    runId: text('run_id').notNull(),
    status: text('status', { enum: PLAN_STATUSES }).notNull().default('proposed'),
    feedback: text('feedback'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [
    index('plans_session_id_idx').on(table.sessionId),
    check('plans_status_check', oneOf(table.status, PLAN_STATUSES)),
  ],
);

export const tasks = sqliteTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    /** Null for queue work added outside a session (`taskweave tasks add`). */
    sessionId: text('session_id').references(() => sessions.id),
    planId: text('plan_id').references(() => plans.id),
    parentId: text('parent_id'),
    queue: text('queue').notNull().default(DEFAULT_QUEUE),
    /** The plan's own id for the task (`t2`), unique within the plan. */
    key: text('key'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** A shell command whose success shows the task is done. */
    checkCommand: text('check_command'),
    /**
     * The settings the goal was submitted with (approval, sandbox, network, model, step limit,
     * loop, plan mode) as JSON, so that whichever process runs it runs it with them; null for
     * work added without any (`taskweave tasks add`, a plan's own tasks).
     */
    runSettings: text('run_settings'),
    status: text('status', { enum: TASK_STATUSES }).notNull().default('pending'),
    /** Position in its queue; lower runs first. */
    sequence: integer('sequence').notNull(),
    attempts: integer('attempts').notNull().default(0),
    resultSummary: text('result_summary'),
    failReason: text('fail_reason'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: integer('lease_expires_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [
    foreignKey({ columns: [table.parentId], foreignColumns: [table.id] }).onDelete('set null'),
    // claimNext seeks the first pending task of a queue; add reads the end of the queue.
    index('tasks_queue_status_sequence_idx').on(table.queue, table.status, table.sequence),
    uniqueIndex('tasks_queue_sequence_idx').on(table.queue, table.sequence),
    // Partial indexes (PostgreSQL has them too): every index entry costs a page write on the hot
    // path, and queue tasks have no plan, pending and finished tasks no lease.
    // This one also serves looking up a plan's tasks: its leading column is plan_id.
    uniqueIndex('tasks_plan_id_key_idx')
      .on(table.planId, table.key)
      .where(sql`${bare(table.planId)} is not null`),
    index('tasks_lease_expires_at_idx')
      .on(table.leaseExpiresAt)
      .where(sql`${bare(table.status)} = 'in_progress'`),
    check('tasks_status_check', oneOf(table.status, TASK_STATUSES)),
  ],
);

export const taskDependencies = sqliteTable(
  'task_dependencies',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    dependsOnId: text('depends_on_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.taskId, table.dependsOnId] }),
    // claimNext and delete look dependencies up from the other side too.
    index('task_dependencies_depends_on_id_idx').on(table.dependsOnId),
  ],
);

/**
 * A request a run made of the user (a question, an approval, a plan, a failure decision), and
 * its answer: the one durable place an answer is given, from any process or machine. The first
 * answer wins (`answer` is set once); the run that goes on with it marks it taken.
 */
export const requests = sqliteTable(
  'requests',
  {
    /** The request id of its event (a plan's id for a plan). */
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    /** The run that asked. */
    runId: text('run_id').notNull(),
    kind: text('kind', { enum: REQUEST_KINDS }).notNull(),
    /** The plan task that asked (input, approval) or failed (failure). */
    taskId: text('task_id'),
    /** JSON: the choices a failure decision offers; null otherwise. */
    choices: text('choices'),
    askedAt: integer('asked_at').notNull(),
    /** JSON: the answer (RequestAnswer); null until someone answers. */
    answer: text('answer'),
    /** Who answered (a process on a host). */
    answeredBy: text('answered_by'),
    answeredAt: integer('answered_at'),
    /** The worker that went on with the answer. */
    takenBy: text('taken_by'),
    takenAt: integer('taken_at'),
  },
  (table) => [
    index('requests_session_id_idx').on(table.sessionId),
    check('requests_kind_check', oneOf(table.kind, REQUEST_KINDS)),
  ],
);

/**
 * Where and by whom the database was created (one row): a database copied or cloned into
 * another folder (a repository that ships `.taskweave/taskweave.db`) is told apart from the
 * workspace's own, and its queued work is not run without the user's say.
 */
export const databaseOrigin = sqliteTable(
  'database_origin',
  {
    /** Always 1: the table holds one row. */
    id: integer('id').primaryKey(),
    /** The workspace folder's absolute path (symbolic links resolved). */
    workspace: text('workspace').notNull(),
    host: text('host').notNull(),
    user: text('user').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [check('database_origin_one_row_check', sql`${bare(table.id)} = 1`)],
);

/**
 * A change record: one file one tool call changed, what it was before and what taskweave left
 * (content ids; null for absent). The steps that changed files are the session's checkpoints.
 */
export const fileChanges = sqliteTable(
  'file_changes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    runId: text('run_id').notNull(),
    /** The plan task (as the events name it) whose step it was; null outside a plan. */
    taskId: text('task_id'),
    step: integer('step').notNull(),
    callId: text('call_id').notNull(),
    tool: text('tool').notNull(),
    /** Relative to the workspace, with `/` between folders. */
    path: text('path').notNull(),
    beforeId: text('before_id'),
    /** The git mode: 100644, 100755 or 120000 (a symbolic link); null when absent. */
    beforeMode: integer('before_mode'),
    afterId: text('after_id'),
    afterMode: integer('after_mode'),
    blobStore: text('blob_store', { enum: BLOB_STORES }).notNull(),
    createdAt: integer('created_at').notNull(),
    /** The restore that undid this change; null while it stands. */
    undoneBy: integer('undone_by'),
  },
  (table) => [
    index('file_changes_session_id_idx').on(table.sessionId),
    check('file_changes_blob_store_check', oneOf(table.blobStore, BLOB_STORES)),
  ],
);

/**
 * An undo, rewind or redo: written as `pending` with the changes it takes back before any file
 * is touched, `done` once every file is back; a pending one is completed by the next restore.
 */
export const restores = sqliteTable(
  'restores',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    kind: text('kind', { enum: RESTORE_KINDS }).notNull(),
    mode: text('mode', { enum: RESTORE_MODES }).notNull(),
    status: text('status', { enum: RESTORE_STATUSES }).notNull().default('pending'),
    /** JSON: the file_changes ids it undoes (undo, rewind) or redoes (redo). */
    changeIds: text('change_ids').notNull(),
    /** JSON: what it did, { files, conflicts }, once done. */
    result: text('result'),
    /** The restore a redo takes back; null otherwise. */
    redoes: integer('redoes'),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [
    index('restores_session_id_idx').on(table.sessionId),
    check('restores_kind_check', oneOf(table.kind, RESTORE_KINDS)),
    check('restores_mode_check', oneOf(table.mode, RESTORE_MODES)),
    check('restores_status_check', oneOf(table.status, RESTORE_STATUSES)),
  ],
);

/**
 * An image given to the model, kept once by the sha256 of its bytes (the messages and events
 * that show it hold its record, never its bytes).
 */
export const images = sqliteTable(
  'images',
  {
    /** The sha256 of `bytes`, in hex. */
    hash: text('hash').primaryKey(),
    mediaType: text('media_type', { enum: IMAGE_MEDIA_TYPES }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** The byte length of `bytes`. */
    size: integer('size').notNull(),
    bytes: blob('bytes', { mode: 'buffer' }).notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [check('images_media_type_check', oneOf(table.mediaType, IMAGE_MEDIA_TYPES))],
);

/** A session row. */
export type Session = typeof sessions.$inferSelect;
/** A run row. */
export type Run = typeof runs.$inferSelect;
/** A plan row. */
export type Plan = typeof plans.$inferSelect;
/** A task row. */
export type Task = typeof tasks.$inferSelect;
/** The database's origin row. */
export type DatabaseOrigin = typeof databaseOrigin.$inferSelect;
/** A request row. */
export type StoredRequest = typeof requests.$inferSelect;
/** A running command row. */
export type RunningCommand = typeof commands.$inferSelect;
/** A change record row. */
export type FileChange = typeof fileChanges.$inferSelect;
/** A restore row. */
export type Restore = typeof restores.$inferSelect;

/** This schema's rows are the store face's (rows.ts), column for column: checked when compiled. */
export const ROWS_MATCH_THE_FACE: MatchesStoreRows<{
  sessions: typeof sessions.$inferSelect;
  runs: typeof runs.$inferSelect;
  plans: typeof plans.$inferSelect;
  tasks: typeof tasks.$inferSelect;
  databaseOrigin: typeof databaseOrigin.$inferSelect;
  requests: typeof requests.$inferSelect;
  commands: typeof commands.$inferSelect;
  fileChanges: typeof fileChanges.$inferSelect;
  restores: typeof restores.$inferSelect;
}> = true;
