import { z } from 'zod';
import { APPROVAL_MODES } from '../../tools/approval.js';
import { SANDBOX_MODES } from '../../tools/sandbox-modes.js';

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
