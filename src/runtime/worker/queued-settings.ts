import { z } from 'zod';
import { imageRecordSchema } from '../../events/images.js';
import type { ResolvedModel } from '../../model/types.js';
import { APPROVAL_MODES, stricterApproval } from '../../tools/approval.js';
import { SANDBOX_MODES } from '../../tools/sandbox-modes.js';
import type { RunSettings } from '../setup/run-settings.js';
import type { RuntimeSafety } from '../setup/runtime-safety.js';

/**
 * The settings a goal is queued with, stored on its task: whichever process runs it (the one
 * that queued it, another terminal's that was running when it was queued, `serve`, `work`)
 * runs it with these, never with its own looser ones.
 */
export const queuedSettingsSchema = z.object({
  /** `provider:model` of the submitter. */
  model: z.string().min(1),
  /** The submitter's --base-url, when it gave one. */
  baseUrl: z.string().optional(),
  approval: z.enum(APPROVAL_MODES),
  sandbox: z.enum(SANDBOX_MODES),
  network: z.boolean(),
  maxSteps: z.number().int().positive(),
  loop: z.enum(['react', 'roa']).optional(),
  plan: z.enum(['auto', 'always', 'never']),
  /** A plain chat turn, without tools. */
  chat: z.boolean().optional(),
  /** The images of the goal's message (records; the bytes are in the store's images). */
  images: z.array(imageRecordSchema).optional(),
});

/** The settings a queued goal runs with. */
export type QueuedSettings = z.infer<typeof queuedSettingsSchema>;

/** The settings as the task's `runSettings` column holds them. */
export function encodeQueuedSettings(settings: QueuedSettings): string {
  return JSON.stringify(settings);
}

/**
 * The settings stored on a task: undefined for work queued without any (`tasks add`); a value
 * that cannot be read is an error, so that such a task is never run with other settings.
 */
export function decodeQueuedSettings(stored: string | null): QueuedSettings | undefined {
  if (stored === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    throw new QueuedSettingsError('its stored settings are not valid JSON');
  }
  const parsed = queuedSettingsSchema.safeParse(value);
  if (!parsed.success)
    throw new QueuedSettingsError(`its stored settings are not valid (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/** A queued task's settings cannot be honoured here: it is not run (and says why). */
export class QueuedSettingsError extends Error {
  override name = 'QueuedSettingsError';
}

/** The differences between two settings, for the notice a run with another process's settings gives. */
export function settingsDifferences(wanted: QueuedSettings, own: QueuedSettings): string[] {
  const keys = ['model', 'approval', 'sandbox', 'network', 'maxSteps', 'loop', 'plan'] as const;
  return keys
    .filter((key) => wanted[key] !== own[key])
    .map((key) => `${key} ${String(wanted[key] ?? 'default')} (here ${String(own[key] ?? 'default')})`);
}

/** What a submitter may choose for one goal; the rest comes from the runtime's settings. */
export type GoalSettings = Partial<Pick<RunSettings, 'maxSteps' | 'loop' | 'plan' | 'chat' | 'approval'>> & {
  /** Images for the model with the goal: hashes of images stored with `Runtime.takeImage`. */
  images?: readonly string[];
};

/** The settings a process runs its goals with, as they are queued. */
export interface ProcessSettings {
  model: Pick<ResolvedModel, 'id'>;
  /** The process's --base-url, when it gave one. */
  baseUrl?: string;
  settings: RunSettings;
  safety: Pick<RuntimeSafety, 'approval' | 'sandboxMode' | 'networkChoice'>;
}

/** The settings a goal is queued with by a process with `own` settings (what a task queued there runs with). */
export function queuedSettingsOf(own: ProcessSettings, goal: GoalSettings = {}): QueuedSettings {
  const loop = goal.loop ?? own.settings.loop;
  const mode = own.safety.approval.mode;
  return {
    model: own.model.id,
    ...(own.baseUrl === undefined ? {} : { baseUrl: own.baseUrl }),
    // A goal may ask for a stricter mode than the runtime's (a custom command's), never a looser one.
    approval: goal.approval ? stricterApproval(goal.approval, mode) : mode,
    sandbox: own.safety.sandboxMode,
    network: own.safety.networkChoice,
    maxSteps: goal.maxSteps ?? own.settings.maxSteps,
    ...(loop === undefined ? {} : { loop }),
    plan: goal.plan ?? own.settings.plan ?? 'auto',
    ...(goal.chat ? { chat: true } : {}),
  };
}
