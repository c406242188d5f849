import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  customType,
  doublePrecision,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
 * The PostgreSQL tables of taskweave, column for column the SQLite schema (../schema.ts): the
 * same table, column, index and constraint names, text ids made in code, times as bigint
 * milliseconds (read back as JS numbers), JSON as text, enumerations as text with CHECK
 * constraints. drizzle builds tables per dialect (sqliteTable, pgTable), so the two files are
 * kept alike by hand and a test compares their columns. After a change here run
 * `npx drizzle-kit generate --config drizzle-pg.config.ts`; the migration is applied at start-up.
 */

/** Milliseconds since the epoch, as a JS number. */
const millis = (name: string) => bigint(name, { mode: 'number' });

/** A column by its bare name, as the SQLite schema writes its CHECK constraints. */
function bare(column: AnyPgColumn): SQL {
  return sql`${sql.identifier(column.name)}`;
}

/** `column IN ('a', 'b')` for a CHECK constraint; the values are the vocabulary's own constants. */
function oneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${bare(column)} in (${sql.raw(values.map((value) => `'${value}'`).join(', '))})`;
}

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    goal: text('goal').notNull(),
    workspace: text('workspace').notNull(),
    model: text('model').notNull(),
    status: text('status', { enum: SESSION_STATUSES }).notNull().default('idle'),
    createdAt: millis('created_at').notNull(),
    updatedAt: millis('updated_at').notNull(),
  },
  (table) => [
    index('sessions_updated_at_idx').on(table.updatedAt),
    check('sessions_status_check', oneOf(table.status, SESSION_STATUSES)),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    runId: text('run_id').notNull(),
    role: text('role', { enum: MESSAGE_ROLES }).notNull(),
    content: text('content').notNull(),
    createdAt: millis('created_at').notNull(),
    taskId: text('task_id').references((): AnyPgColumn => tasks.id, { onDelete: 'set null' }),
    rewoundBy: integer('rewound_by'),
  },
  (table) => [
    index('messages_session_id_task_id_idx').on(table.sessionId, table.taskId),
    check('messages_role_check', oneOf(table.role, MESSAGE_ROLES)),
  ],
);

export const events = pgTable(
  'events',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    seq: integer('seq').notNull(),
    runId: text('run_id').notNull(),
    type: text('type').notNull(),
    updateType: text('update_type'),
    payload: text('payload').notNull(),
    ts: millis('ts').notNull(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.seq] })],
);

/**
 * The last seq each session's event log gave: the one counter of event seqs. Each append bumps
 * it in the statement (or transaction) that inserts its events, so writers in several processes
 * or on several machines get the next seqs in turn, with no gap; a rolled-back append takes its
 * bump back with it. A session gets its row with its first event.
 */
export const sessionSeqs = pgTable('session_seqs', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => sessions.id),
  lastSeq: integer('last_seq').notNull(),
});

export const runs = pgTable(
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
    cost: doublePrecision('cost'),
    taskId: text('task_id'),
    startedAt: millis('started_at').notNull(),
    endedAt: millis('ended_at'),
  },
  (table) => [
    index('runs_session_id_idx').on(table.sessionId),
    check('runs_mode_check', oneOf(table.mode, RUN_MODES)),
    check('runs_status_check', oneOf(table.status, RUN_STATES)),
  ],
);

export const commands = pgTable(
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
    pgid: integer('pgid').notNull(),
    ownerPid: integer('owner_pid').notNull(),
    /** The machine the command runs on: a shared store holds every machine's commands. */
    host: text('host'),
    startedAt: millis('started_at').notNull(),
    backgroundId: text('background_id'),
  },
  (table) => [index('commands_session_id_idx').on(table.sessionId)],
);

export const plans = pgTable(
  'plans',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    runId: text('run_id').notNull(),
    status: text('status', { enum: PLAN_STATUSES }).notNull().default('proposed'),
    feedback: text('feedback'),
    createdAt: millis('created_at').notNull(),
    updatedAt: millis('updated_at').notNull(),
  },
  (table) => [
    index('plans_session_id_idx').on(table.sessionId),
    check('plans_status_check', oneOf(table.status, PLAN_STATUSES)),
  ],
);

export const tasks = pgTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id').references(() => sessions.id),
    planId: text('plan_id').references(() => plans.id),
    parentId: text('parent_id'),
    queue: text('queue').notNull().default(DEFAULT_QUEUE),
    key: text('key'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    checkCommand: text('check_command'),
    runSettings: text('run_settings'),
    status: text('status', { enum: TASK_STATUSES }).notNull().default('pending'),
    sequence: integer('sequence').notNull(),
    /** Claims of the task so far; the attempt a worker claimed is its fencing token. */
    attempts: integer('attempts').notNull().default(0),
    resultSummary: text('result_summary'),
    failReason: text('fail_reason'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: millis('lease_expires_at'),
    createdAt: millis('created_at').notNull(),
    updatedAt: millis('updated_at').notNull(),
  },
  (table) => [
    foreignKey({ columns: [table.parentId], foreignColumns: [table.id] }).onDelete('set null'),
    index('tasks_queue_status_sequence_idx').on(table.queue, table.status, table.sequence),
    uniqueIndex('tasks_queue_sequence_idx').on(table.queue, table.sequence),
    uniqueIndex('tasks_plan_id_key_idx')
      .on(table.planId, table.key)
      .where(sql`${bare(table.planId)} is not null`),
    index('tasks_lease_expires_at_idx')
      .on(table.leaseExpiresAt)
      .where(sql`${bare(table.status)} = 'in_progress'`),
    check('tasks_status_check', oneOf(table.status, TASK_STATUSES)),
  ],
);

export const taskDependencies = pgTable(
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
    index('task_dependencies_depends_on_id_idx').on(table.dependsOnId),
  ],
);

export const requests = pgTable(
  'requests',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    runId: text('run_id').notNull(),
    kind: text('kind', { enum: REQUEST_KINDS }).notNull(),
    taskId: text('task_id'),
    choices: text('choices'),
    askedAt: millis('asked_at').notNull(),
    answer: text('answer'),
    answeredBy: text('answered_by'),
    answeredAt: millis('answered_at'),
    takenBy: text('taken_by'),
    takenAt: millis('taken_at'),
  },
  (table) => [
    index('requests_session_id_idx').on(table.sessionId),
    check('requests_kind_check', oneOf(table.kind, REQUEST_KINDS)),
  ],
);

export const databaseOrigin = pgTable(
  'database_origin',
  {
    id: integer('id').primaryKey(),
    workspace: text('workspace').notNull(),
    host: text('host').notNull(),
    user: text('user').notNull(),
    createdAt: millis('created_at').notNull(),
  },
  (table) => [check('database_origin_one_row_check', sql`${bare(table.id)} = 1`)],
);

export const fileChanges = pgTable(
  'file_changes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    runId: text('run_id').notNull(),
    taskId: text('task_id'),
    step: integer('step').notNull(),
    callId: text('call_id').notNull(),
    tool: text('tool').notNull(),
    path: text('path').notNull(),
    beforeId: text('before_id'),
    beforeMode: integer('before_mode'),
    afterId: text('after_id'),
    afterMode: integer('after_mode'),
    blobStore: text('blob_store', { enum: BLOB_STORES }).notNull(),
    createdAt: millis('created_at').notNull(),
    undoneBy: integer('undone_by'),
  },
  (table) => [
    index('file_changes_session_id_idx').on(table.sessionId),
    check('file_changes_blob_store_check', oneOf(table.blobStore, BLOB_STORES)),
  ],
);

export const restores = pgTable(
  'restores',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    kind: text('kind', { enum: RESTORE_KINDS }).notNull(),
    mode: text('mode', { enum: RESTORE_MODES }).notNull(),
    status: text('status', { enum: RESTORE_STATUSES }).notNull().default('pending'),
    changeIds: text('change_ids').notNull(),
    result: text('result'),
    redoes: integer('redoes'),
    createdAt: millis('created_at').notNull(),
  },
  (table) => [
    index('restores_session_id_idx').on(table.sessionId),
    check('restores_kind_check', oneOf(table.kind, RESTORE_KINDS)),
    check('restores_mode_check', oneOf(table.mode, RESTORE_MODES)),
    check('restores_status_check', oneOf(table.status, RESTORE_STATUSES)),
  ],
);

/** Bytes as PostgreSQL keeps them (bytea), read back as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const images = pgTable(
  'images',
  {
    hash: text('hash').primaryKey(),
    mediaType: text('media_type', { enum: IMAGE_MEDIA_TYPES }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: millis('created_at').notNull(),
  },
  (table) => [check('images_media_type_check', oneOf(table.mediaType, IMAGE_MEDIA_TYPES))],
);

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
