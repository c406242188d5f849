import { sameEndpoint } from '../model/endpoint-trust.js';
import { ModelConfigError } from '../model/types.js';
import { configFilePaths, loadConfigFile } from './config-file.js';

/** The model and base URL a goal was queued with (the submitter's `--model` and `--base-url`). */
export interface QueuedModelRequest {
  model: string;
  baseUrl?: string;
}

/** What the process that would run a queued goal chose itself. */
export interface QueuedModelRules {
  /** This process's own model (`provider:model`). */
  ownModel: string;
  /** This process's own --base-url, when it gave one. */
  ownBaseUrl?: string;
  /** Started with --allow-queued-scripts: a queued `script:` model may run here. */
  allowScripts: boolean;
  /** The workspace (for the config files). */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The flag that lets a process run goals queued with a script model other than its own. */
export const ALLOW_QUEUED_SCRIPTS_FLAG = '--allow-queued-scripts';

/**
 * A goal queued in the store (by anyone who can write to it) is a request: its model runs here
 * only when this process would choose it itself, because the model is sent the goal and the
 * files, and calls tools on this machine. Allowed: this process's own model, the `model` and
 * `queuedModels` of the user's own config; a `script:` model (a file that calls tools as the
 * model) only with ALLOW_QUEUED_SCRIPTS_FLAG. A queued base URL receives this machine's API key:
 * it is used only when it is this process's own --base-url, the user's config `baseUrl`, or in
 * its `trustedBaseUrls`. A workspace's config (a cloned repository's) never adds to either list.
 * Anything else is a QueuedModelError saying what was refused and how to allow it.
 */
export async function checkQueuedModel(request: QueuedModelRequest, rules: QueuedModelRules): Promise<void> {
  const [, userFile = ''] = configFilePaths(rules);
  const { config, sources } = await loadConfigFile(rules);
  const own = <T>(key: keyof typeof sources, value: T | undefined): T | undefined =>
    sources[key] === userFile ? value : undefined;
  const model = request.model.trim();
  if (model.startsWith('script:')) {
    if (model !== rules.ownModel && !rules.allowScripts)
      throw new QueuedModelError(
        `it asks for the script model "${model}", and a script calls tools as the model: this process runs a queued script model only when started with ${ALLOW_QUEUED_SCRIPTS_FLAG}.`,
      );
  } else {
    const allowed = [
      rules.ownModel,
      own('model', config.model),
      ...(own('queuedModels', config.queuedModels) ?? []),
    ];
    if (!allowed.some((name) => name?.trim() === model))
      throw new QueuedModelError(
        `it asks for the model "${model}", which this process does not run for queued goals: it runs its own (${rules.ownModel}) and those of "queuedModels" in ${userFile}; add "${model}" there to allow it.`,
      );
  }
  const url = request.baseUrl;
  if (url === undefined) return;
  const trusted = [
    rules.ownBaseUrl,
    own('baseUrl', config.baseUrl),
    ...(own('trustedBaseUrls', config.trustedBaseUrls) ?? []),
  ];
  if (!trusted.some((known) => known !== undefined && sameEndpoint(known, url)))
    throw new QueuedModelError(
      `it asks for the model to be called at ${url}, which would receive this machine's API key, the goal and the files: that URL is not this process's --base-url nor in "trustedBaseUrls" of ${userFile}; add it there if you trust that server.`,
    );
}

/** A queued goal's model or base URL is not one this process runs (the goal fails, saying why). */
export class QueuedModelError extends ModelConfigError {
  override name = 'QueuedModelError';

  constructor(reason: string) {
    super(`This worker does not trust the model the goal was queued with: ${reason}`);
  }
}
